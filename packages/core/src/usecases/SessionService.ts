import { traced } from "../tracing/traced.ts"
import { Context, Effect, Layer } from "effect"
import type { SessionId } from "../domain/Ids.ts"
import { authorize } from "../domain/Permissions.ts"
import type { SessionCreate, SessionUpdate } from "../domain/Session.ts"
import { SessionRepository } from "../ports/SessionRepository.ts"
import { found } from "./found.ts"

const make = Effect.gen(function*() {
  const sessions = yield* SessionRepository
  return {
    create: traced("SessionService.create")(function*(input: SessionCreate) {
      yield* authorize("session.create")
      return yield* sessions.create(input)
    }),
    list: traced("SessionService.list")(function*() {
      yield* authorize("session.read")
      return yield* sessions.list()
    }),
    /** Authorized now; the sessions are read as the returned stream is consumed. */
    stream: traced("SessionService.stream")(function*() {
      yield* authorize("session.read")
      return sessions.stream()
    }),
    get: traced("SessionService.get")(function*(id: SessionId) {
      yield* authorize("session.read")
      return yield* sessions.findById(id).pipe(found("Session", id))
    }),
    update: traced("SessionService.update")(function*(id: SessionId, input: SessionUpdate) {
      yield* authorize("session.update")
      return yield* sessions.update(id, input)
    }),
    delete: traced("SessionService.delete")(function*(id: SessionId) {
      yield* authorize("session.delete")
      return yield* sessions.delete(id)
    })
  }
})

export class SessionService extends Context.Service<SessionService, Effect.Success<typeof make>>()(
  "@club/core/SessionService"
) {
  static readonly layer = Layer.effect(SessionService, make)
}
