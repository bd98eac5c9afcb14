import { traced } from "../shared/traced.ts"
import { Context, Effect, Layer } from "effect"
import { authorize } from "../shared/Permissions.ts"
import { SessionRepository } from "./SessionRepository.ts"
import { makeRecordUseCases } from "../records/RecordUseCases.ts"

const make = Effect.gen(function*() {
  const repository = yield* SessionRepository
  return {
    ...makeRecordUseCases({
      entity: "Session",
      repository,
      operations: {
        create: "session.create",
        list: "session.read",
        read: "session.read",
        update: "session.update",
        delete: "session.delete"
      }
    }),
    /** Authorized now; the sessions are read as the returned stream is consumed. */
    stream: traced("SessionService.stream")(function*() {
      yield* authorize("session.read")
      return repository.stream()
    })
  }
})

export class SessionService extends Context.Service<SessionService, Effect.Success<typeof make>>()(
  "@club/core/SessionService"
) {
  static readonly layer = Layer.effect(SessionService, make)
}
