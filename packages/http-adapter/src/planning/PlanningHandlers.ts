import { PlannedSessionChange, PlannedSessionCreate, PlanningService, SessionQuery } from "@club/core"
import { PlannedSessionService } from "@club/core/calendar"
import { toCoreInput } from "@club/contract/rest"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

export const PlanningHandlers = HttpApiBuilder.group(
  ServedApi,
  "planning",
  Effect.fn(function*(handlers) {
    const planning = yield* PlanningService
    const planned = yield* PlannedSessionService
    return handlers
      .handle(
        "sessions",
        ({ query: { cursor, limit, ...filters } }) =>
          planning.sessions(new SessionQuery(filters), { cursor, limit }).pipe(problems)
      )
      .handle(
        "createSession",
        ({ payload }) => planned.create(toCoreInput(PlannedSessionCreate, payload)).pipe(problems)
      )
      .handle(
        "changeSession",
        ({ params, payload }) =>
          planned.change(params.id, new PlannedSessionChange(payload, { disableChecks: true })).pipe(problems)
      )
  })
)
