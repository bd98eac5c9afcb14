import { instantOf } from "../shared/clubTime.ts"
import type { AthleteId, CoachId, SessionId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import type { Booking, InMemoryTables } from "../shared/InMemoryStore.ts"

/** The longest session that books anyone (ten years, in minutes), as the database adapter bounds it. */
export const maxBookedMinutes = 5_256_000

/** What one new session would book. */
export interface Wanted {
  readonly sessionId: SessionId
  readonly coachId: CoachId | null
  readonly athleteIds: ReadonlyArray<AthleteId>
  readonly creneau: LocalDateTime
  readonly duree: number
}

const overlaps = (a: Booking, b: Booking) => a.from < b.to && b.from < a.to

/** The instants a session books, `[creneau, creneau + duree minutes)` in `timeZone`, if it books anyone. */
export const rangeOf = (timeZone: string, creneau: LocalDateTime, duree: number): Booking | undefined => {
  if (duree < 1 || duree > maxBookedMinutes) return undefined
  const from = instantOf(timeZone, creneau)
  return { from, to: from + duree * 60_000 }
}

/**
 * The bookings of the in-memory store, with the rules of the database's exclusion constraints:
 * a coach's or athlete's booking that overlaps another of the same person is refused, and a
 * booking lapses with its session (the coach's) or its membership (an athlete's).
 */
export const bookingsOf = (
  { athleteBookings, coachBookings, sessions }: Pick<InMemoryTables, "athleteBookings" | "coachBookings" | "sessions">
) => {
  /** The holding bookings, as the database keeps them (rows of lapsed ones are gone there). */
  const held = function*() {
    for (const [sessionId, booking] of coachBookings) {
      if (sessions.has(sessionId)) yield { sessionId, person: `coach ${booking.coachId}`, booking }
    }
    for (const [sessionId, byAthlete] of athleteBookings) {
      const session = sessions.get(sessionId)
      if (session === undefined) continue
      for (const [athleteId, booking] of byAthlete) {
        if (session.athleteIds.has(athleteId)) yield { sessionId, person: `athlete ${athleteId}`, booking }
      }
    }
  }

  return {
    /**
     * Books what each session wants, in order, skipping a booking that overlaps one held (as
     * `ON CONFLICT DO NOTHING` does). Answers the sessions whose bookings were skipped, and the
     * held ones they met, ascending.
     */
    book: (timeZone: string, wanted: ReadonlyArray<Wanted>) => {
      const holding = [...held()]
      const met = new Set<number>()
      let skipped = false
      const take = (sessionId: SessionId, person: string, booking: Booking) => {
        const clashes = holding.filter((h) => h.person === person && overlaps(h.booking, booking))
        if (clashes.length > 0) {
          skipped = true
          for (const clash of clashes) met.add(clash.sessionId)
          return false
        }
        holding.push({ sessionId, person, booking })
        return true
      }
      for (const session of wanted) {
        const booking = rangeOf(timeZone, session.creneau, session.duree)
        if (booking === undefined) continue
        if (session.coachId !== null && take(session.sessionId, `coach ${session.coachId}`, booking)) {
          coachBookings.set(session.sessionId, { ...booking, coachId: session.coachId })
        }
        for (const athleteId of session.athleteIds) {
          if (!take(session.sessionId, `athlete ${athleteId}`, booking)) continue
          const byAthlete = athleteBookings.get(session.sessionId) ?? new Map<AthleteId, Booking>()
          athleteBookings.set(session.sessionId, byAthlete.set(athleteId, booking))
        }
      }
      const newIds = new Set<number>(wanted.map((w) => w.sessionId))
      return { skipped, met: [...met].filter((id) => !newIds.has(id)).sort((a, b) => a - b) }
    },
    /** Forgets the bookings of these sessions (a refused write's). */
    unbook: (sessionIds: Iterable<SessionId>) => {
      for (const id of sessionIds) {
        coachBookings.delete(id)
        athleteBookings.delete(id)
      }
    }
  }
}
