import { AthleteCreate, AthleteService, AthleteUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AthleteUpdateFailed, NotFoundEmpty, toAthleteDto, toCoreInput } from "@club/contract/rest"
import { isNotForbidden, isNotFound, pinned, problems } from "../shared/problems.ts"
import { RecordReads } from "../shared/RecordReads.ts"
import { ServedApi } from "../ServedApi.ts"

const emptyNotFound = pinned(isNotFound, () => new NotFoundEmpty())

/** Any failure of an update but a role refusal answers the seed's empty 204. */
const updateFailure = pinned(isNotForbidden, () => new AthleteUpdateFailed())

export const AthletesHandlers = HttpApiBuilder.group(
  ServedApi,
  "athletes",
  Effect.fn(function*(handlers) {
    const athletes = yield* AthleteService
    const reads = yield* RecordReads
    return handlers
      .handle(
        "create",
        ({ payload }) => athletes.create(toCoreInput(AthleteCreate, payload)).pipe(Effect.map(toAthleteDto), problems)
      )
      .handle("all", () => athletes.list().pipe(Effect.map((all) => all.map(toAthleteDto)), problems))
      .handle("get", ({ params }) => reads.athlete(params.id).pipe(emptyNotFound))
      .handle(
        "update",
        ({ params, payload }) =>
          athletes.update(params.id, toCoreInput(AthleteUpdate, payload)).pipe(Effect.map(toAthleteDto), updateFailure)
      )
      .handle("delete", ({ params }) => athletes.delete(params.id).pipe(emptyNotFound))
  })
)
