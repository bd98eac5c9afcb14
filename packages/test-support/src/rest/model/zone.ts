/**
 * Wall-clock times of a zone turned into instants with the runtime's own time-zone data (`Intl`),
 * independently of the service: the model's reference for "overlapping in real time".
 */
import { wallClockIn } from "../../zonedInstants.ts"

/** The zone's offset from UTC, in minutes, at the instant `epochMs`. */
export const offsetMinutesAt = (zone: string, epochMs: number): number =>
  Math.round((Date.parse(`${wallClockIn(zone, epochMs)}Z`) - Math.floor(epochMs / 1000) * 1000) / 60_000)

/** `2027-03-28T02:30:00` read as if it were UTC: the wall clock's own arithmetic. */
export const wallMs = (local: string) => Date.parse(`${local}Z`)
/** The inverse of `wallMs`. */
export const wallOf = (ms: number) => new Date(ms).toISOString().slice(0, 19)

/**
 * The instant of a wall-clock time at the club, as docs/schedule/series.md says the service reads
 * it (RFC 5545 §3.3.5): a time the zone skips (the spring-forward gap) with the offset before the
 * skip (the smaller one), a time it repeats (the fall-back hour) as its first occurrence (the larger).
 */
export const instantOf = (zone: string, local: string): number => {
  const wall = wallMs(local)
  const day = 86_400_000
  const candidates = [...new Set([-2 * day, 0, 2 * day].map((shift) => offsetMinutesAt(zone, wall + shift)))]
  const valid = candidates.filter((offset) => offsetMinutesAt(zone, wall - offset * 60_000) === offset)
  const offset = valid.length > 0 ? Math.max(...valid) : Math.min(...candidates)
  return wall - offset * 60_000
}

/** `[start, end)` in epoch milliseconds of a session at `creneau` lasting `duree` minutes. */
export const instantsOf = (zone: string, creneau: string, duree: number) => {
  const start = instantOf(zone, creneau)
  return { start, end: start + duree * 60_000 }
}

/** The wall-clock time at the club now. */
export const clubNow = (zone: string) => {
  const now = Date.now()
  return wallOf(now + offsetMinutesAt(zone, now) * 60_000)
}

/**
 * The local dates (`2027-03-28`) on which the zone's offset changes, scanning hour by hour from
 * `fromMs` forward (or backward) until `count` are found (within two years).
 */
export const offsetChangeDays = (zone: string, fromMs: number, direction: 1 | -1, count: number) => {
  const days: Array<string> = []
  const hour = 3_600_000
  let at = Math.floor(fromMs / hour) * hour
  for (let step = 0; step < 2 * 366 * 24 && days.length < count; step++) {
    const next = at + direction * hour
    const [before, after] = direction === 1 ? [at, next] : [next, at]
    if (offsetMinutesAt(zone, before) !== offsetMinutesAt(zone, after)) {
      days.push(wallOf(before + offsetMinutesAt(zone, before) * 60_000).slice(0, 10))
    }
    at = next
  }
  return days
}

/** `day` (`2027-03-28`) moved by `days` days. */
export const addDays = (day: string, days: number) => wallOf(wallMs(`${day}T00:00:00`) + days * 86_400_000).slice(0, 10)
