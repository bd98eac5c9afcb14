import { Context, Effect, Layer, Option } from "effect"
import { EntityNotFound } from "../shared/Errors.ts"
import type { SessionId } from "../shared/Ids.ts"
import { authorize, coachFor, handsOverOnly } from "../shared/Permissions.ts"
import type { PlannedSessionChange, PlannedSessionCreate } from "../series/Series.ts"
import { SeriesRepository } from "../series/SeriesRepository.ts"
import { SessionRepository } from "../sessions/SessionRepository.ts"
import { traced } from "../shared/traced.ts"
import { InvitationRepository } from "../membership/InvitationRepository.ts"
import { groupCoachesOf } from "../membership/groupCoaches.ts"

/**
 * Single sessions written through the schedule (issue 17): as the seed's session writes (their
 * role rules are `session.create` and `session.update`), but each books its coach and athletes,
 * so that a double booking is refused (`ScheduleConflict`), also between instances.
 */
const make = Effect.gen(function*() {
  const repository = yield* SeriesRepository
  const sessions = yield* SessionRepository
  const invitations = yield* InvitationRepository

  const read = (id: SessionId) =>
    Effect.flatMap(sessions.findById(id), (found) =>
      Option.isNone(found)
        ? Effect.fail(new EntityNotFound({ entity: "Session", id }))
        : Effect.succeed(found.value))

  return {
    /** A coach plans its own sessions: `coachId` absent (or null) is the caller, another coach's is refused. */
    create: traced("PlannedSessionService.create")(function*(input: PlannedSessionCreate) {
      const coachId = yield* coachFor(input.coachId)
      yield* authorize("plannedSession.create", { coachId, subject: "a session" })
      return yield* repository.createSession({ ...input, coachId })
    }),
    /**
     * Changes the fields given; an occurrence of a series changed this way becomes an exception
     * (overridden). Only the session's coach (any coach for one without), or a coach of its group or
     * of a group above it; an admin may hand it over.
     */
    change: traced("PlannedSessionService.change")(function*(id: SessionId, change: PlannedSessionChange) {
      // The role (an admin's body must be a hand-over) before anything is read; then whose the session is.
      const handOverOnly = handsOverOnly(change)
      yield* authorize("plannedSession.update", { handOverOnly })
      const session = yield* read(id)
      yield* authorize("plannedSession.update", {
        coachId: session.coachId,
        ...(yield* groupCoachesOf(invitations, session)),
        handOverOnly,
        subject: `session ${id}`
      })
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
