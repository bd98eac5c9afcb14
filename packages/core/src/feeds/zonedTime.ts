import { instantOf as clubInstantOf, wallClockAt } from "../shared/clubTime.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"

/** The wall-clock fields of `instant` in `timeZone`, as a local date-time. */
export const localAt = (instant: number, timeZone: string): LocalDateTime => wallClockAt(timeZone, instant)

/** The instant a wall-clock time of `timeZone` names (ClubTime's `instantOf`: gaps and overlaps as RFC 5545 §3.3.5). */
export const instantOf = (local: LocalDateTime, timeZone: string): number => clubInstantOf(timeZone, local)

/** `minutes` after a wall-clock time, as the wall clock then reads (an instant's arithmetic, not the clock's). */
export const addMinutes = (local: LocalDateTime, minutes: number, timeZone: string): LocalDateTime =>
  localAt(instantOf(local, timeZone) + minutes * 60_000, timeZone)
