import { Schema } from "effect"

const localDateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/u
const calendarDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/u

const isRealDate = (year: number, month: number, day: number): boolean => {
  const date = new globalThis.Date(globalThis.Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const isValidLocalDateTime = (s: string): boolean => {
  const m = localDateTimePattern.exec(s)
  if (m === null) return false
  const [, y, mo, d, h, mi, se] = m.map(Number) as [number, number, number, number, number, number, number]
  return isRealDate(y, mo, d) && h < 24 && mi < 60 && se < 60
}

const isValidCalendarDate = (s: string): boolean => {
  const m = calendarDatePattern.exec(s)
  if (m === null) return false
  const [, y, mo, d] = m.map(Number) as [number, number, number, number]
  return isRealDate(y, mo, d)
}

/**
 * An ISO 8601 local date-time without offset, `2026-11-21T18:30:00`, as the seed's `creneau`.
 * Kept as a string: it names a wall-clock time at the club, not an instant.
 */
export const LocalDateTime = Schema.String.check(
  Schema.makeFilter(isValidLocalDateTime, { expected: "a local date-time like 2026-11-21T18:30:00" })
).pipe(Schema.brand("LocalDateTime"))
export type LocalDateTime = typeof LocalDateTime.Type

/** An ISO 8601 calendar date, `2026-11-21`. */
export const CalendarDate = Schema.String.check(
  Schema.makeFilter(isValidCalendarDate, { expected: "a calendar date like 2026-11-21" })
).pipe(Schema.brand("CalendarDate"))
export type CalendarDate = typeof CalendarDate.Type

/** "After a date" compares with the start of that day (CONTRACT.md). */
export const startOfDay = (date: CalendarDate): LocalDateTime => `${date}T00:00:00` as LocalDateTime
