import { Schema } from "effect"
import type { AthleteId, CoachId, SeriesId, UserId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import type { Session } from "../sessions/Session.ts"

/** A feed token: 32 random bytes in base64url (43 characters), handed to its user once. */
export const FeedToken = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{43}$/u, { expected: "a feed token" })
).pipe(Schema.brand("FeedToken"))
export type FeedToken = typeof FeedToken.Type

/**
 * Whose sessions a calendar feed holds: an athlete's (those it is invited to: one of their
 * athletes, or a member of their group on their day), a coach's, a group's, or a guardian's (the
 * sessions of every athlete the user guards, issue 41).
 */
export type FeedScope =
  | { readonly kind: "athlete"; readonly athleteId: AthleteId }
  | { readonly kind: "coach"; readonly coachId: CoachId }
  | { readonly kind: "group"; readonly groupe: string }
  | { readonly kind: "guardian"; readonly userId: UserId }

/** The scope a feed's URL names: a guardian's feed is the feed token's own user's. */
export type FeedRequestScope = Exclude<FeedScope, { readonly kind: "guardian" }> | { readonly kind: "guardian" }

/** A session of a feed with its revision: 0 when created, one more on every change of its values (SEQUENCE). */
export interface FeedSession {
  readonly session: Session
  readonly revision: number
  /** The series the session is an occurrence of, and the time its rule gave it; null for a session of its own. */
  readonly seriesId: SeriesId | null
  readonly occurrenceStart: LocalDateTime | null
}
