import { SessionCreate, SessionService, SessionUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { SessionCreateFailed, SessionNotFoundText } from "@club/contract/rest"
import { jsonArrayResponse } from "./jsonArrayResponse.ts"
import { isNotFound, isNotForbidden, pinned, problems } from "./problems.ts"
import { RecordReads } from "./recordReads.ts"
import { toSessionDto } from "./toDto.ts"

/** Any failure of a create but a role refusal answers the seed's 400 plain text. */
const createFailure = pinned(isNotForbidden, (error) => new SessionCreateFailed({ message: error.message }))

/** An unknown id on read or delete answers the seed's 404 plain text. */
const textNotFound = pinned(isNotFound, (error) => new SessionNotFoundText({ message: error.message }))

export const SessionsHandlers = HttpApiBuilder.group(
  ClubApi,
  "sessions",
  Effect.fn(function*(handlers) {
    const sessions = yield* SessionService
    const reads = yield* RecordReads
    return handlers
      .handle("create", ({ payload }) =>
        sessions.create(
          new SessionCreate({
            id: payload.id ?? null,
            name: payload.name ?? null,
            isRecurrent: payload.isRecurrent ?? null,
            creneau: payload.creneau ?? null,
            duree: payload.duree ?? null,
            groupe: payload.groupe ?? null,
            coachId: payload.coachId ?? null,
            athleteIds: payload.athleteIds ?? [],
            activiteIds: payload.activiteIds ?? []
          })
        ).pipe(Effect.map(toSessionDto), createFailure))
      // Streamed: the seed's answer is every session, which must not mean all of them in memory at once.
      .handle(
        "all",
        () => sessions.stream().pipe(Effect.flatMap((all) => jsonArrayResponse(all, toSessionDto)), problems)
      )
      .handle("get", ({ params }) => reads.session(params.id).pipe(textNotFound))
      .handle(
        "delete",
        ({ params }) =>
          sessions.delete(params.id).pipe(Effect.as("Session deleted successfully" as const), textNotFound)
      )
      .handle("update", ({ params, payload }) =>
        // The seed applies only these three, each only when present; null counts as absent on input.
        sessions.update(
          params.id,
          new SessionUpdate({
            ...(payload.duree == null ? {} : { duree: payload.duree }),
            ...(payload.athleteIds == null ? {} : { athleteIds: payload.athleteIds }),
            ...(payload.activiteIds == null ? {} : { activiteIds: payload.activiteIds })
          })
        ).pipe(Effect.asVoid, problems))
  })
)
