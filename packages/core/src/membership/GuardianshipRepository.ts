import { Context, type Effect, type Option } from "effect"
import type { EntityNotFound, TooManyGuardianships } from "../shared/Errors.ts"
import type { AthleteId, UserId } from "../shared/Ids.ts"

/**
 * How many links a guardianship list holds at most (docs/membership.md, "Guardians"): a link beyond
 * either bound is refused (409), so that every list of links, and the guardians the reply loads,
 * is bounded. A family's children, and a child's parents and carers, fit well within them.
 */
export const GuardianshipBounds = {
  /** The athletes one user may guard. */
  athletesPerGuardian: 20,
  /** The guardians one athlete may have. */
  guardiansPerAthlete: 10
} as const

/**
 * The links between users and the athletes they answer for (issue 41). A link is there or not
 * (no history): removing it ends the guardian's rights at once. Deleting a user or an athlete
 * removes its links.
 */
export class GuardianshipRepository extends Context.Service<GuardianshipRepository, {
  /**
   * Links the user to the athlete; true when the link is new, false when it was there already
   * (nothing written). Unknown user or athlete: `EntityNotFound` naming which (the user first).
   * A new link beyond `GuardianshipBounds` (the user's athletes or the athlete's guardians):
   * `TooManyGuardianships`, nothing written. Two links at once never pass a bound together.
   */
  link(userId: UserId, athleteId: AthleteId): Effect.Effect<boolean, EntityNotFound | TooManyGuardianships>
  /** Removes the link; false when there was none. */
  unlink(userId: UserId, athleteId: AthleteId): Effect.Effect<boolean>
  /** The athletes the user guards, by id; none for an unknown user. One statement. */
  athletesOf(userId: UserId): Effect.Effect<Option.Option<ReadonlyArray<AthleteId>>>
  /** The athlete's guardians (user ids), by id; none for an unknown athlete. One statement. */
  guardiansOf(athleteId: AthleteId): Effect.Effect<Option.Option<ReadonlyArray<UserId>>>
}>()("@club/core/GuardianshipRepository") {}
