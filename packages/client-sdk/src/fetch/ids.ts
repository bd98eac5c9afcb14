import type {
  ActivityId,
  AdminId,
  AthleteId,
  CalendarDate,
  CoachId,
  LocalDateTime,
  SessionId,
  UserId
} from "@club/contract/rest"

/**
 * The id and date constructors of `@club/client-sdk` without Effect's schemas: the same checks
 * (test/fetchFace.test.ts holds them to the contract's schemas) and the same brands.
 */
const id = <A>(what: string) => (value: number): A => {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Not ${what}: ${JSON.stringify(value)}`)
  return value as A
}

export const activityId = id<ActivityId>("an activity id")
export const adminId = id<AdminId>("an admin id")
export const athleteId = id<AthleteId>("an athlete id")
export const coachId = id<CoachId>("a coach id")
export const sessionId = id<SessionId>("a session id")
export const userId = id<UserId>("a user id")

const pad = (value: number, width = 2) => String(value).padStart(width, "0")
const dateOf = (date: Date) => `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`

const isRealDate = (year: number, month: number, day: number): boolean => {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const isCalendarDate = (text: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(text)
  return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))
}

const isLocalDateTime = (text: string) => {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/u.exec(text)
  return match !== null && isCalendarDate(match[1]!) && Number(match[2]) < 24 && Number(match[3]) < 60 &&
    Number(match[4]) < 60
}

/** A session's `creneau`, `2026-01-31T18:30:00`: from a string, checked; from a `Date`, its wall-clock time here. */
export const localDateTime = (value: string | Date): LocalDateTime => {
  const text = typeof value === "string"
    ? value
    : `${dateOf(value)}T${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}`
  if (!isLocalDateTime(text)) {
    throw new RangeError(`Not a local date-time like 2026-11-21T18:30:00: ${JSON.stringify(value)}`)
  }
  return text as LocalDateTime
}

/** A calendar date, `2026-01-31`; from a `Date`, its date in this runtime's time zone. */
export const calendarDate = (value: string | Date): CalendarDate => {
  const text = typeof value === "string" ? value : dateOf(value)
  if (!isCalendarDate(text)) throw new RangeError(`Not a calendar date like 2026-11-21: ${JSON.stringify(value)}`)
  return text as CalendarDate
}
