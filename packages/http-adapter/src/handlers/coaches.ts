import { type CoachId, CoachCreate, CoachService, CoachUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import type { CoachInput } from "@club/contract/rest"
import { problems, problemsWithReason } from "./problems.ts"
import { RecordReads } from "./recordReads.ts"
import { toCoachDto } from "./toDto.ts"

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
      coaches.create(new CoachCreate({ id: payload.id ?? null, name: payload.name ?? null })).pipe(
        Effect.map(toCoachDto),
        problems
      ),
    all: () => coaches.list().pipe(Effect.map((all) => all.map(toCoachDto)), problems),
    get: ({ params }: WithId) => reads.coach(params.id).pipe(coachNotFound),
    // The seed replaces the name only when it is present.
    update: ({ params, payload }: WithId & WithInput) =>
      coaches.update(params.id, new CoachUpdate(payload.name == null ? {} : { name: payload.name })).pipe(
        Effect.map(toCoachDto),
        coachNotFound
      ),
    delete: ({ params }: WithId) => coaches.delete(params.id).pipe(coachNotFound)
  }
})

export const CoachesHandlers = HttpApiBuilder.group(
  ClubApi,
  "coaches",
  Effect.fn(function*(handlers) {
    const coach = yield* makeCoachHandlers
    return handlers.handle("create", coach.create).handle("all", coach.all).handle("get", coach.get)
      .handle("update", coach.update).handle("delete", coach.delete)
  })
)

export const RootCoachesHandlers = HttpApiBuilder.group(
  ClubApi,
  "rootCoaches",
  Effect.fn(function*(handlers) {
    const coach = yield* makeCoachHandlers
    return handlers.handle("create", coach.create).handle("all", coach.all).handle("get", coach.get)
      .handle("update", coach.update).handle("delete", coach.delete)
  })
)
