import { SessionCreate, SessionService, SessionUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SessionCreateFailed, SessionNotFoundText, toCoreInput } from "@club/contract/rest"
import { jsonArrayResponse } from "../shared/jsonArrayResponse.ts"
import { isNotFound, isNotForbidden, pinned, problems } from "../shared/problems.ts"
import { RecordReads } from "../shared/RecordReads.ts"
import { ServedApi } from "../ServedApi.ts"

/** Any failure of a create but a role refusal answers the seed's 400 plain text. */
const createFailure = pinned(isNotForbidden, (error) => new SessionCreateFailed({ message: error.message }))

/** An unknown id on read or delete answers the seed's 404 plain text. */
const textNotFound = pinned(isNotFound, (error) => new SessionNotFoundText({ message: error.message }))

export const SessionsHandlers = HttpApiBuilder.group(
  ServedApi,
  "sessions",
  Effect.fn(function*(handlers) {
    const sessions = yield* SessionService
    const reads = yield* RecordReads
    return handlers
      .handle(
        "create",
        ({ payload }) => sessions.create(toCoreInput(SessionCreate, payload)).pipe(createFailure)
      )
      // Streamed, each session as it is (its answer is the record itself): the seed's answer is every
      // session, which must not mean all of them in memory at once.
      .handle(
        "all",
        () => sessions.stream().pipe(Effect.flatMap((all) => jsonArrayResponse(all, (session) => session)), problems)
      )
      .handle("get", ({ params }) => reads.session(params.id).pipe(textNotFound))
      .handle(
        "delete",
        ({ params }) =>
          sessions.delete(params.id).pipe(Effect.as("Session deleted successfully" as const), textNotFound)
      )
      .handle("update", ({ params, payload }) =>
        // The seed applies only SessionUpdate's three fields, each only when present.
        sessions.update(params.id, toCoreInput(SessionUpdate, payload)).pipe(Effect.asVoid, problems))
  })
)
