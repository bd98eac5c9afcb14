import { Schema } from "effect"

const localDateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/u
const calendarDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/u

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
const daysInMonth = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/**
 * A day of the Gregorian calendar, counted without building a `Date` (every write's date-times are
 * checked). A year below 100 is refused: JavaScript's `Date.UTC` reads it as 1900 plus the year.
 */
const isRealDate = (year: number, month: number, day: number): boolean =>
  year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)

const isValidLocalDateTime = (s: string): boolean => {
  const m = localDateTimePattern.exec(s)
  if (m === null) return false
  return isRealDate(Number(m[1]), Number(m[2]), Number(m[3])) && Number(m[4]) < 24 && Number(m[5]) < 60 &&
    Number(m[6]) < 60
}

const isValidCalendarDate = (s: string): boolean => {
  const m = calendarDatePattern.exec(s)
  if (m === null) return false
  return isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))
}

/**
 * What JSON Schema can say of the two formats: the digits in their places, months 01-12, days
 * 01-31, hours 00-23, and years 0100 to 9999 (a year below 100 is not read as itself, so it is
 * refused). That the day exists in its month is checked by the server beyond the pattern.
 */
const datePattern = "(?:[1-9][0-9]{3}|0[1-9][0-9]{2})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
const timePattern = "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"

/**
 * An ISO 8601 local date-time without offset, `2026-11-21T18:30:00`, as the seed's `creneau`.
 * Kept as a string: it names a wall-clock time at the club, not an instant. (Not JSON Schema's
 * `date-time` format, which requires an offset.)
 */
export const LocalDateTime = Schema.String.check(
  Schema.makeFilter(isValidLocalDateTime, {
    expected: "a local date-time like 2026-11-21T18:30:00",
    toJsonSchema: () => ({ pattern: `^${datePattern}T${timePattern}$` })
  })
).pipe(Schema.brand("LocalDateTime"))
export type LocalDateTime = typeof LocalDateTime.Type

/**
 * An ISO 8601 calendar date, `2026-11-21`. Its generated examples (property tests, the REST
 * fuzzer) are drawn from a pattern of dates that exist (days up to 28), not from strings the check
 * would nearly all refuse.
 */
export const CalendarDate = Schema.String.check(
  Schema.makeFilter(isValidCalendarDate, {
    expected: "a calendar date like 2026-11-21",
    toJsonSchema: () => ({ format: "date", pattern: `^${datePattern}$` }),
    arbitraryConstraint: {
      patterns: [{ source: "^20[2-3][0-9]-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])$", flags: "u" }]
    }
  })
).pipe(Schema.brand("CalendarDate"))
export type CalendarDate = typeof CalendarDate.Type

/** "After a date" compares with the start of that day (CONTRACT.md). */
export const startOfDay = (date: CalendarDate): LocalDateTime => `${date}T00:00:00` as LocalDateTime
