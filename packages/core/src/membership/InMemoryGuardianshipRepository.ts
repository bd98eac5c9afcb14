import { Effect, Layer, Option } from "effect"
import { EntityNotFound, TooManyGuardianships } from "../shared/Errors.ts"
import type { AthleteId, UserId } from "../shared/Ids.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { traced } from "../shared/traced.ts"
import { GuardianshipBounds, GuardianshipRepository } from "./GuardianshipRepository.ts"

const byId = (a: number, b: number) => a - b

/** `GuardianshipRepository` on the in-memory store's `guardians` (each athlete's guardians); each operation is one synchronous step. */
export const InMemoryGuardianshipRepository = Layer.effect(
  GuardianshipRepository,
  Effect.gen(function*() {
    const { users, athletes, guardians } = yield* InMemoryStore

    const athletesOfUser = (userId: UserId) =>
      [...guardians.entries()].filter(([, of]) => of.has(userId)).map(([athleteId]) => athleteId).sort(byId)

    const link = traced("GuardianshipRepository.link")(function*(userId: UserId, athleteId: AthleteId) {
      if (users.get(userId) === undefined) return yield* new EntityNotFound({ entity: "User", id: userId })
      if (!athletes.has(athleteId)) return yield* new EntityNotFound({ entity: "Athlete", id: athleteId })
      const of = guardians.get(athleteId) ?? new Set<UserId>()
      if (of.has(userId)) return false
      if (athletesOfUser(userId).length >= GuardianshipBounds.athletesPerGuardian) {
        return yield* new TooManyGuardianships({ of: "user", id: userId, max: GuardianshipBounds.athletesPerGuardian })
      }
      if (of.size >= GuardianshipBounds.guardiansPerAthlete) {
        return yield* new TooManyGuardianships({
          of: "athlete",
          id: athleteId,
          max: GuardianshipBounds.guardiansPerAthlete
        })
      }
      guardians.set(athleteId, of.add(userId))
      return true
    })

    const unlink = traced("GuardianshipRepository.unlink")(function*(userId: UserId, athleteId: AthleteId) {
      const of = guardians.get(athleteId)
      if (of === undefined || !of.delete(userId)) return false
      if (of.size === 0) guardians.delete(athleteId)
      return true
    })

    const athletesOf = traced("GuardianshipRepository.athletesOf")(function*(userId: UserId) {
      return users.get(userId) === undefined ? Option.none() : Option.some(athletesOfUser(userId))
    })

    const guardiansOf = traced("GuardianshipRepository.guardiansOf")(function*(athleteId: AthleteId) {
      return athletes.has(athleteId)
        ? Option.some([...(guardians.get(athleteId) ?? [])].sort(byId))
        : Option.none()
    })

    return GuardianshipRepository.of({ link, unlink, athletesOf, guardiansOf })
  })
)
