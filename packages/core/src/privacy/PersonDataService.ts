import { Context, Effect, Layer, Option } from "effect"
import { GuardianshipRepository } from "../membership/GuardianshipRepository.ts"
import type { AthleteId, UserId } from "../shared/Ids.ts"
import { authorize } from "../shared/Permissions.ts"
import { traced } from "../shared/traced.ts"
import { UserRepository } from "../users/UserRepository.ts"
import { athletePersonNotFound, PersonDataRepository, personNotFound } from "./PersonData.ts"

/** Rows per page of an export, read one page at a time (decision 0271). */
export const exportPageSize = 500

/** Rows per transaction of an erasure (decision 0269). */
export const erasureBatchSize = 500

const make = Effect.gen(function*() {
  const people = yield* PersonDataRepository
  const users = yield* UserRepository
  const guardianships = yield* GuardianshipRepository

  return {
    /**
     * Everything the service holds about the person of user `userId` (admins, and the person),
     * as a stream read page by page. Unknown user: `personNotFound`, before any page is read.
     */
    exportOf: traced("PersonDataService.exportOf")(function*(userId: UserId) {
      yield* authorize("person.export", { userId, subject: `user ${userId}` })
      if (Option.isNone(yield* users.findById(userId))) return yield* personNotFound(userId)
      return people.exportPerson(userId, exportPageSize)
    }),
    /** Erases the person of user `userId` (admins): idempotent, answers the ledger's row. */
    erase: traced("PersonDataService.erase")(function*(userId: UserId) {
      yield* authorize("person.erase")
      return yield* people.erase(userId, erasureBatchSize)
    }),
    /**
     * Everything the service holds about the person of athlete `athleteId` (admins, the athlete, and
     * its guardians: a child without a login), as `exportOf` answers it. The guardians are read first
     * (one statement, which also tells an unknown athlete); unknown athlete: `athletePersonNotFound`,
     * before any page is read.
     */
    exportOfAthlete: traced("PersonDataService.exportOfAthlete")(function*(athleteId: AthleteId) {
      const found = yield* guardianships.guardiansOf(athleteId)
      yield* authorize("athletePerson.export", {
        athleteId,
        guardians: Option.getOrElse(found, () => []),
        subject: `athlete ${athleteId}`
      })
      if (Option.isNone(found)) return yield* athletePersonNotFound(athleteId)
      return people.exportAthlete(athleteId, exportPageSize)
    }),
    /** Erases the person of athlete `athleteId` (admins): its user's erasure when one links it, else the athlete's. */
    eraseAthlete: traced("PersonDataService.eraseAthlete")(function*(athleteId: AthleteId) {
      yield* authorize("athletePerson.erase")
      return yield* people.eraseAthlete(athleteId, erasureBatchSize)
    })
  }
})

/** A person's export and erasure (issue 43, docs/privacy.md). */
export class PersonDataService extends Context.Service<PersonDataService, Effect.Success<typeof make>>()(
  "@club/core/PersonDataService"
) {
  static readonly layer = Layer.effect(PersonDataService, make)
}
