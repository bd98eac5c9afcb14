import { Context, Effect, Layer, Option } from "effect"
import type { UserId } from "../shared/Ids.ts"
import { authorize } from "../shared/Permissions.ts"
import { traced } from "../shared/traced.ts"
import { UserRepository } from "../users/UserRepository.ts"
import { PersonDataRepository, personNotFound } from "./PersonData.ts"

/** Rows per page of an export, read one page at a time (decision 0271). */
export const exportPageSize = 500

/** Rows per transaction of an erasure (decision 0269). */
export const erasureBatchSize = 500

const make = Effect.gen(function*() {
  const people = yield* PersonDataRepository
  const users = yield* UserRepository

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
    })
  }
})

/** A person's export and erasure (issue 43, docs/privacy.md). */
export class PersonDataService extends Context.Service<PersonDataService, Effect.Success<typeof make>>()(
  "@club/core/PersonDataService"
) {
  static readonly layer = Layer.effect(PersonDataService, make)
}
