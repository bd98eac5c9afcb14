import { CalendarDate as CalendarDateSchema, LocalDateTime as LocalDateTimeSchema } from "@club/contract/rest"
import { Schema } from "effect"
import type { CalendarDate, LocalDateTime } from "./Ids.ts"

const isLocalDateTime = Schema.is(LocalDateTimeSchema)
const isCalendarDate = Schema.is(CalendarDateSchema)

const pad = (value: number, width = 2) => String(value).padStart(width, "0")

const dateOf = (date: Date) => `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`

/**
 * A session's `creneau`: a wall-clock time at the club, `2026-01-31T18:30:00`, with no offset. From
 * a string it is checked; from a `Date`, it is that instant's wall-clock time in this runtime's time
 * zone (seconds kept, milliseconds dropped), as a form's date picker gives it.
 */
export const localDateTime = (value: string | Date): LocalDateTime => {
  const text = typeof value === "string"
    ? value
    : `${dateOf(value)}T${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}`
  if (!isLocalDateTime(text)) {
    throw new RangeError(`Not a local date-time like 2026-11-21T18:30:00: ${JSON.stringify(value)}`)
  }
  return text
}

/** A calendar date, `2026-01-31`; from a `Date`, its date in this runtime's time zone. */
export const calendarDate = (value: string | Date): CalendarDate => {
  const text = typeof value === "string" ? value : dateOf(value)
  if (!isCalendarDate(text)) throw new RangeError(`Not a calendar date like 2026-11-21: ${JSON.stringify(value)}`)
  return text
}

/**
 * The `Date` of a `creneau` read as a wall-clock time in this runtime's time zone: right when the
 * runtime runs in the club's zone (a browser at the club), to display or compare times.
 */
export const toDate = (value: LocalDateTime | CalendarDate): Date => {
  const [date = "", time = "00:00:00"] = value.split("T")
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  const [hours, minutes, seconds] = time.split(":").map(Number) as [number, number, number]
  return new Date(year, month - 1, day, hours, minutes, seconds)
}
