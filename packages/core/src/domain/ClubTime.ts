import type { LocalDateTime } from "./LocalDateTime.ts"

/** The wall-clock time in `timeZone` at the instant `epochMs`, to the second. */
export const wallClockAt = (timeZone: string, epochMs: number): LocalDateTime => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    }).formatToParts(new Date(epochMs)).map((part) => [part.type, part.value])
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}` as LocalDateTime
}

/** `local` moved by whole days on the calendar, the time of day kept. */
export const plusDays = (local: LocalDateTime, days: number): LocalDateTime =>
  new Date(Date.parse(`${local}Z`) + days * 86_400_000).toISOString().slice(0, 19) as LocalDateTime
