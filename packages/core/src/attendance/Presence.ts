import { Schema } from "effect"
import { AthleteId, SessionId, UserId } from "../shared/Ids.ts"
import { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import { BoundedArray } from "../shared/Text.ts"

/** Whether an athlete came to a session, as its coach records it once the session has started. */
export const PresenceStatus = Schema.Literals(["present", "late", "absent", "excused"])
export type PresenceStatus = typeof PresenceStatus.Type

export class PresenceMark extends Schema.Class<PresenceMark>("PresenceMark")({
  athleteId: AthleteId,
  status: PresenceStatus
}) {}

/** The marks a coach records at once: each replaces the athlete's earlier one. */
export class PresenceInput extends Schema.Class<PresenceInput>("PresenceInput")({
  marks: BoundedArray(PresenceMark)
}) {}

/** An instant, as ISO 8601 in UTC with milliseconds (`2026-11-24T19:02:11.517Z`). */
export const Instant = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u))

/** An athlete's current mark, and who recorded it when. */
export class PresenceRecord extends Schema.Class<PresenceRecord>("PresenceRecord")({
  athleteId: AthleteId,
  status: PresenceStatus,
  markedBy: UserId,
  markedAt: Instant
}) {}

/** One change of a mark, kept for good: the first mark (`previousStatus` null) and every correction. */
export class PresenceChange extends Schema.Class<PresenceChange>("PresenceChange")({
  athleteId: AthleteId,
  status: PresenceStatus,
  previousStatus: Schema.NullOr(PresenceStatus),
  changedBy: UserId,
  changedAt: Instant
}) {}

/** A session's marks by athlete, and their history in the order it was written. */
export class SessionPresence extends Schema.Class<SessionPresence>("SessionPresence")({
  sessionId: SessionId,
  marks: Schema.Array(PresenceRecord),
  history: Schema.Array(PresenceChange)
}) {}

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** How many marks of each status. */
export const PresenceCounts = { present: Count, late: Count, absent: Count, excused: Count }
export type PresenceCounts = Schema.Struct<typeof PresenceCounts>["Type"]

/**
 * The attendance rate: the sessions come to (present or late) over the sessions that counted
 * (present, late or absent); an excused absence counts neither way. Null when none counted.
 */
export const attendanceRate = (counts: PresenceCounts): number | null => {
  const counted = counts.present + counts.late + counts.absent
  return counted === 0 ? null : (counts.present + counts.late) / counted
}

const Rate = Schema.NullOr(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })))

export class AthleteAttendance extends Schema.Class<AthleteAttendance>("AthleteAttendance")({
  athleteId: AthleteId,
  ...PresenceCounts,
  rate: Rate
}) {}

export class GroupAttendance extends Schema.Class<GroupAttendance>("GroupAttendance")({
  groupe: Schema.NullOr(Schema.String),
  ...PresenceCounts,
  rate: Rate
}) {}

/** Attendance over the sessions of a period (by `creneau`, `from` to `to` inclusive), by athlete and by group. */
export class AttendanceFigures extends Schema.Class<AttendanceFigures>("AttendanceFigures")({
  from: CalendarDate,
  to: CalendarDate,
  athletes: Schema.Array(AthleteAttendance),
  groups: Schema.Array(GroupAttendance)
}) {}

/** A mark as the season's export lists it. */
export class PresenceLine extends Schema.Class<PresenceLine>("PresenceLine")({
  sessionId: SessionId,
  creneau: Schema.NullOr(LocalDateTime),
  sessionName: Schema.NullOr(Schema.String),
  groupe: Schema.NullOr(Schema.String),
  athleteId: AthleteId,
  athleteName: Schema.NullOr(Schema.String),
  status: PresenceStatus
}) {}

/** What a spreadsheet reads as the start of a formula (OWASP, CSV injection): `=`, `+`, `-`, `@`, tab, CR. */
const formulaStart = /^[=+\-@\t\r]/u

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * Text that a spreadsheet would evaluate as a formula is neutralised as OWASP advises: a single
 * quote before it, inside a quoted field. Numbers the service writes itself (ids) are never text
 * a person typed, so they stay numbers.
 */
const csvField = (value: string | number | null): string => {
  if (value === null) return ""
  if (typeof value === "number") return String(value)
  const formula = formulaStart.test(value)
  const text = formula ? `'${value}` : value
  return formula || /[",\r\n]/u.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text
}

export const presenceCsvHeader = [
  "session_id",
  "creneau",
  "session_name",
  "groupe",
  "athlete_id",
  "athlete_name",
  "status"
]

/** The export as RFC 4180 CSV: a header line, then a line per mark, each ended by CRLF. */
export const presenceCsv = (lines: ReadonlyArray<PresenceLine>): string =>
  [
    presenceCsvHeader,
    ...lines.map((l) => [l.sessionId, l.creneau, l.sessionName, l.groupe, l.athleteId, l.athleteName, l.status])
  ]
    .map((fields) => `${fields.map(csvField).join(",")}\r\n`)
    .join("")

/** Why marks naming athletes who are not the session's are refused. */
export const notMembers = (athleteIds: ReadonlyArray<number>, sessionId: number): string =>
  athleteIds.length === 1
    ? `athlete ${athleteIds[0]} is not an athlete of session ${sessionId}`
    : `athletes ${athleteIds.join(", ")} are not athletes of session ${sessionId}`
