import { type CoachId, CoachCreate, CoachService, CoachUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toCoreInput } from "@club/contract/rest"
import type { CoachInput } from "@club/contract/rest"
import { problems, problemsWithReason } from "./problems.ts"
import { RecordReads } from "./recordReads.ts"
import { ServedApi } from "../ServedApi.ts"

const coachNotFound = problemsWithReason("Coach not found")

interface WithId {
  readonly params: { readonly id: CoachId }
}
interface WithInput {
  readonly payload: typeof CoachInput.Type
}

/** One set of handlers serves both the seed's root paths and the `/coaches` prefix. */
const makeCoachHandlers = Effect.gen(function*() {
  const coaches = yield* CoachService
  const reads = yield* RecordReads
  return {
    create: ({ payload }: WithInput) =>
      coaches.create(toCoreInput(CoachCreate, payload)).pipe(
        problems
      ),
    all: () => coaches.list().pipe(problems),
    get: ({ params }: WithId) => reads.coach(params.id).pipe(coachNotFound),
    // The seed replaces the name only when it is present and not null.
    update: ({ params, payload }: WithId & WithInput) =>
      coaches.update(params.id, toCoreInput(CoachUpdate, payload)).pipe(
        coachNotFound
      ),
    delete: ({ params }: WithId) => coaches.delete(params.id).pipe(coachNotFound)
  }
})

export const CoachesHandlers = HttpApiBuilder.group(
  ServedApi,
  "coaches",
  Effect.fn(function*(handlers) {
    const coach = yield* makeCoachHandlers
    return handlers.handle("create", coach.create).handle("all", coach.all).handle("get", coach.get)
      .handle("update", coach.update).handle("delete", coach.delete)
  })
)

export const RootCoachesHandlers = HttpApiBuilder.group(
  ServedApi,
  "rootCoaches",
  Effect.fn(function*(handlers) {
    const coach = yield* makeCoachHandlers
    return handlers.handle("create", coach.create).handle("all", coach.all).handle("get", coach.get)
      .handle("update", coach.update).handle("delete", coach.delete)
  })
)
