import { zoneOffsetAt, wallClockAt } from "../domain/ClubTime.ts"
import type { LocalDateTime } from "../domain/LocalDateTime.ts"

/** The wall-clock fields of `instant` in `timeZone`, as a local date-time. */
export const localAt = (instant: number, timeZone: string): LocalDateTime => wallClockAt(timeZone, instant)

const asUtc = (local: LocalDateTime) => Date.parse(`${local}Z`)

/**
 * The instant a wall-clock time of `timeZone` names. A time skipped by a change to summer time is
 * read with the offset before it (02:30 on the last Sunday of March in Paris is 03:30 CEST), a
 * repeated one as its first occurrence, as RFC 5545 §3.3.5 says.
 */
export const instantOf = (local: LocalDateTime, timeZone: string): number => {
  const wall = asUtc(local)
  const before = zoneOffsetAt(timeZone, wall - 86_400_000)
  const after = zoneOffsetAt(timeZone, wall + 86_400_000)
  const early = wall - Math.max(before, after)
  const late = wall - Math.min(before, after)
  for (const candidate of [early, late]) if (localAt(candidate, timeZone) === local) return candidate
  return wall - before
}

/** `minutes` after a wall-clock time, as the wall clock then reads (an instant's arithmetic, not the clock's). */
export const addMinutes = (local: LocalDateTime, minutes: number, timeZone: string): LocalDateTime =>
  localAt(instantOf(local, timeZone) + minutes * 60_000, timeZone)
