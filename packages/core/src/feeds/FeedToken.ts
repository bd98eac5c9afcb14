import { Schema } from "effect"
import type { AthleteId, CoachId, SeriesId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import type { Session } from "../sessions/Session.ts"

/** A feed token: 32 random bytes in base64url (43 characters), handed to its user once. */
export const FeedToken = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{43}$/u, { expected: "a feed token" })
).pipe(Schema.brand("FeedToken"))
export type FeedToken = typeof FeedToken.Type

/** Whose sessions a calendar feed holds: an athlete's (those it takes part in), a coach's, or a group's. */
export type FeedScope =
  | { readonly kind: "athlete"; readonly athleteId: AthleteId }
  | { readonly kind: "coach"; readonly coachId: CoachId }
  | { readonly kind: "group"; readonly groupe: string }

/** A session of a feed with its revision: 0 when created, one more on every change of its values (SEQUENCE). */
export interface FeedSession {
  readonly session: Session
  readonly revision: number
  /** The series the session is an occurrence of, and the time its rule gave it; null for a session of its own. */
  readonly seriesId: SeriesId | null
  readonly occurrenceStart: LocalDateTime | null
}
