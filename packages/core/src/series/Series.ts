import { Schema } from "effect"
import { AthleteId, CoachId, SeriesId, SessionId } from "../shared/Ids.ts"
import { LocalDateTime } from "../shared/LocalDateTime.ts"
import { Duree } from "../sessions/Session.ts"
import { BoundedArray, ShortText } from "../shared/Text.ts"

/**
 * A series' recurrence rule as it is written: RFC 5545 RRULE text, without the `RRULE:` prefix
 * (`FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630`). Its subset is checked by `parseRecurrenceRule`.
 */
export const RruleText = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({
  description:
    "An RFC 5545 RRULE subset: FREQ=DAILY|WEEKLY, INTERVAL, BYDAY (weekday codes), and COUNT or UNTIL (floating, no Z).",
  examples: ["FREQ=WEEKLY;BYDAY=TU,TH;COUNT=20"]
})

/** A series' duration in minutes (docs/DECISIONS.md "Durations in minutes"), at least one. */
export const SeriesDuree = Duree.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
  description: "Minutes."
})

/**
 * A local date-time whose generated examples (property tests, the REST fuzzer) are real dates:
 * the check itself accepts every value, and tells the generator to draw from a pattern of dates
 * that exist (days up to 28), rather than from strings that `LocalDateTime` would nearly all refuse.
 */
const generatedAsRealDates = Schema.makeFilter<string>(() => true, {
  arbitraryConstraint: {
    patterns: [{
      source: "^20[2-3][0-9]-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:00$",
      flags: "u"
    }]
  }
})

/** What a series holds by value; each occurrence copies them into its session. */
export const SeriesValues = {
  name: Schema.NullOr(ShortText),
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId),
  /** Minutes. */
  duree: SeriesDuree,
  /** The first wall-clock time of the series, at the club (as a session's `creneau`). */
  start: LocalDateTime.check(generatedAsRealDates),
  rrule: RruleText
}

export class SeriesCreate extends Schema.Class<SeriesCreate>("SeriesCreate")({
  ...SeriesValues,
  athleteIds: BoundedArray(AthleteId)
}) {}

/** One occurrence of a series: the session it is, at the wall-clock time the rule gave it. */
export class Occurrence extends Schema.Class<Occurrence>("Occurrence")({
  sessionId: SessionId,
  /** The time the rule gives it (the session's `creneau`, unless the occurrence was moved by itself). */
  occurrenceStart: LocalDateTime,
  /** Changed by itself (`scope=one`): a later change of the series leaves its values alone. */
  overridden: Schema.Boolean
}) {}

export class Series extends Schema.Class<Series>("Series")({
  id: SeriesId,
  ...SeriesValues,
  athleteIds: Schema.Array(AthleteId),
  /** Occurrences exist as sessions up to this wall-clock time (inclusive); later ones are created as time passes. */
  expandedUntil: LocalDateTime,
  /** Where a cancellation ended the series: no occurrence at or after this time exists or is created. */
  endsBefore: Schema.NullOr(LocalDateTime),
  /** The series a change "from this occurrence on" continued this one as (it ends at `endsBefore`). */
  continuedBy: Schema.NullOr(SeriesId),
  /** 0 when created, one more on every change of its values (its SEQUENCE in calendar feeds). */
  revision: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  /** In time order; an occurrence whose session was deleted is no longer listed, and is not created again. */
  occurrences: Schema.Array(Occurrence)
}) {}

/** A wall-clock time of day at the club, `18:30:00`. */
export const TimeOfDay = Schema.String.check(
  Schema.isPattern(/^(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/u, { expected: "a time of day like 18:30:00" })
).annotate({ description: "A wall-clock time of day at the club, HH:MM:SS.", examples: ["18:30:00"] })

/**
 * What a change writes into the occurrences it reaches: only the fields given (null clears a name,
 * group or coach; `athleteIds` becomes exactly the memberships).
 */
export const OccurrenceValuesChange = {
  name: Schema.optionalKey(Schema.NullOr(ShortText)),
  groupe: Schema.optionalKey(Schema.NullOr(ShortText)),
  coachId: Schema.optionalKey(Schema.NullOr(CoachId)),
  athleteIds: Schema.optionalKey(BoundedArray(AthleteId)),
  /** Minutes. */
  duree: Schema.optionalKey(SeriesDuree)
}
export type OccurrenceValues = Pick<SeriesChange, keyof typeof OccurrenceValuesChange>

/** A change of a series from an occurrence on: its values, and `time`, the new time of day of its occurrences. */
export class SeriesChange extends Schema.Class<SeriesChange>("SeriesChange")({
  ...OccurrenceValuesChange,
  time: Schema.optionalKey(TimeOfDay)
}) {}

/**
 * A change of one occurrence (or, with `scope=following`, of it and the later ones): `creneau`
 * moves one occurrence to any wall-clock time; `time` keeps its day and changes its time of day.
 */
export class OccurrenceChange extends Schema.Class<OccurrenceChange>("OccurrenceChange")({
  ...OccurrenceValuesChange,
  time: Schema.optionalKey(TimeOfDay),
  creneau: Schema.optionalKey(LocalDateTime.check(generatedAsRealDates))
}) {}

/**
 * How a series changes from the occurrence at `from` (a time its rule gives) on, as the store
 * applies it: its occurrences from `from` on move by `shiftSeconds` (their `occurrenceStart`, and
 * the `creneau` of those not overridden), and those not overridden take `values`. With
 * `continuation`, the series ends before `from` and a new series (`start`, `rrule`, the values)
 * continues it; otherwise the series itself takes `start`, `rrule` and the values.
 */
export interface SeriesRewrite {
  readonly from: LocalDateTime
  readonly shiftSeconds: number
  readonly continuation: boolean
  readonly start: LocalDateTime
  readonly rrule: string
  readonly values: OccurrenceValues
}

/** A session written through the schedule (`POST /planning/sessions`): it has a time and a length, so it books its people. */
export class PlannedSessionCreate extends Schema.Class<PlannedSessionCreate>("PlannedSessionCreate")({
  name: Schema.NullOr(ShortText),
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId),
  athleteIds: BoundedArray(AthleteId),
  /** Minutes. */
  duree: SeriesDuree,
  creneau: LocalDateTime.check(generatedAsRealDates)
}) {}

/** A change of a session through the schedule (`PATCH /planning/sessions/{id}`): the fields given. */
export class PlannedSessionChange extends Schema.Class<PlannedSessionChange>("PlannedSessionChange")({
  ...OccurrenceValuesChange,
  creneau: Schema.optionalKey(LocalDateTime.check(generatedAsRealDates))
}) {}

/**
 * An occurrence cancelled by itself (`scope=one`): its session is gone, and the series remembers
 * the time the rule gave it, so that a calendar feed shows it as `STATUS:CANCELLED` under its
 * `RECURRENCE-ID` (docs/schedule/feeds-and-paging.md "Series"). Not part of any REST answer.
 */
export interface SeriesCancellation {
  readonly seriesId: SeriesId
  /** The time the rule gave the occurrence (its RECURRENCE-ID); moves with the series' time of day. */
  readonly occurrenceStart: LocalDateTime
  /**
   * The cancellation's SEQUENCE: one more than the greater of the series' revision and the
   * occurrence's revision when it was cancelled, so calendar apps apply it over what they hold.
   */
  readonly sequence: number
  /**
   * Who the cancelled session was for (its coach, group and athletes when it was cancelled): a
   * feed shows the cancellation only where the session was; elsewhere the time stays an EXDATE.
   */
  readonly coachId: CoachId | null
  readonly groupe: string | null
  readonly athleteIds: ReadonlyArray<AthleteId>
}
