import { Context, Effect, Layer, Option } from "effect"
import { CurrentActor } from "../shared/Actor.ts"
import { EntityNotFound } from "../shared/Errors.ts"
import type { AthleteId, UserId } from "../shared/Ids.ts"
import { authorize } from "../shared/Permissions.ts"
import { traced } from "../shared/traced.ts"
import { Guardianship } from "./Group.ts"
import { GuardianshipRepository } from "./GuardianshipRepository.ts"

const make = Effect.gen(function*() {
  const repository = yield* GuardianshipRepository

  return {
    /**
     * Links a user to an athlete it answers for (admins); linking again changes nothing. Unknown
     * user or athlete: 404 naming which; beyond `GuardianshipBounds`: 409.
     */
    link: traced("GuardianService.link")(function*(userId: UserId, athleteId: AthleteId) {
      yield* authorize("guardian.manage")
      yield* repository.link(userId, athleteId)
      return new Guardianship({ userId, athleteId })
    }),
    /** Removes the link (admins): the user's rights on the athlete end with it. No such link: 404. */
    unlink: traced("GuardianService.unlink")(function*(userId: UserId, athleteId: AthleteId) {
      yield* authorize("guardian.manage")
      if (!(yield* repository.unlink(userId, athleteId))) {
        return yield* new EntityNotFound({ entity: "Guardianship", id: `user ${userId}, athlete ${athleteId}` })
      }
    }),
    /** The links of the athletes a user guards, by athlete id (admins, and the user itself). Unknown user: 404. */
    athletesOf: traced("GuardianService.athletesOf")(function*(userId: UserId) {
      yield* authorize("guardian.read", { userId })
      const athletes = yield* repository.athletesOf(userId)
      if (Option.isNone(athletes)) return yield* new EntityNotFound({ entity: "User", id: userId })
      return athletes.value.map((athleteId) => new Guardianship({ userId, athleteId }))
    }),
    /**
     * The links of an athlete's guardians, by user id (admins: the rule that manages the links, as
     * no athlete user reads who answers for it). Unknown athlete: 404.
     */
    guardiansOf: traced("GuardianService.guardiansOf")(function*(athleteId: AthleteId) {
      yield* authorize("guardian.manage")
      const guardians = yield* repository.guardiansOf(athleteId)
      if (Option.isNone(guardians)) return yield* new EntityNotFound({ entity: "Athlete", id: athleteId })
      return guardians.value.map((userId) => new Guardianship({ userId, athleteId }))
    }),
    /**
     * Whether the caller guards the athlete: what the REST role gate asks of a rule that admits
     * guardians (`admitsGuardians`) before it refuses a caller the roles alone refuse. It reads the
     * caller's own link only, so it needs no rule of its own.
     */
    callerGuards: traced("GuardianService.callerGuards")(function*(athleteId: AthleteId) {
      const actor = yield* CurrentActor
      const guardians = yield* repository.guardiansOf(athleteId)
      return Option.isSome(guardians) && guardians.value.includes(actor.userId)
    })
  }
})

/** Guardians of athletes (issue 41, docs/membership.md "Guardians"): the links, read and managed. */
export class GuardianService extends Context.Service<GuardianService, Effect.Success<typeof make>>()(
  "@club/core/GuardianService"
) {
  static readonly layer = Layer.effect(GuardianService, make)
}
