import { Context, Effect, Layer, Option } from "effect"
import { EntityNotFound } from "../domain/Errors.ts"
import type { SessionId } from "../domain/Ids.ts"
import { authorize } from "../domain/Permissions.ts"
import type { PlannedSessionChange, PlannedSessionCreate } from "../domain/Series.ts"
import { SeriesRepository } from "../ports/SeriesRepository.ts"
import { SessionRepository } from "../ports/SessionRepository.ts"
import { traced } from "../tracing/traced.ts"

/**
 * Single sessions written through the schedule (issue 17): as the seed's session writes (their
 * role rules are `session.create` and `session.update`), but each books its coach and athletes,
 * so that a double booking is refused (`ScheduleConflict`), also between instances.
 */
const make = Effect.gen(function*() {
  const repository = yield* SeriesRepository
  const sessions = yield* SessionRepository

  const read = (id: SessionId) =>
    Effect.flatMap(sessions.findById(id), (found) =>
      Option.isNone(found)
        ? Effect.fail(new EntityNotFound({ entity: "Session", id }))
        : Effect.succeed(found.value))

  return {
    create: traced("PlannedSessionService.create")(function*(input: PlannedSessionCreate) {
      yield* authorize("session.create")
      const id = yield* repository.createSession(input)
      // Just written in this request: there is no answer without it.
      return Option.getOrThrow(yield* sessions.findById(id))
    }),
    /** Changes the fields given; an occurrence of a series changed this way becomes an exception (overridden). */
    change: traced("PlannedSessionService.change")(function*(id: SessionId, change: PlannedSessionChange) {
      yield* authorize("session.update")
      if (!(yield* repository.changeSession(id, change))) return yield* new EntityNotFound({ entity: "Session", id })
      return yield* read(id)
    })
  }
})

export class PlannedSessionService extends Context.Service<PlannedSessionService, Effect.Success<typeof make>>()(
  "@club/core/PlannedSessionService"
) {
  static readonly layer = Layer.effect(PlannedSessionService, make)
}
