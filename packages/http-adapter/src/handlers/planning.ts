import { PlanningService, SessionQuery } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "./problems.ts"
import { ServedApi } from "../ServedApi.ts"

export const PlanningHandlers = HttpApiBuilder.group(
  ServedApi,
  "planning",
  Effect.fn(function*(handlers) {
    const planning = yield* PlanningService
    return handlers.handle(
      "sessions",
      ({ query: { cursor, limit, ...filters } }) =>
        planning.sessions(new SessionQuery(filters), { cursor, limit }).pipe(problems)
    )
  })
)
