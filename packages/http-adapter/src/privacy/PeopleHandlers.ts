import { PersonDataService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { jsonArrayResponse } from "../shared/jsonArrayResponse.ts"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** A person's export and erasure: every failure is its category's problem. */
export const PeopleHandlers = HttpApiBuilder.group(
  ServedApi,
  "people",
  Effect.fn(function*(handlers) {
    const people = yield* PersonDataService
    return handlers
      // Written page by page as it is read (decision 0271): the first page before the status line.
      .handle(
        "export",
        ({ params }) =>
          people.exportOf(params.id).pipe(Effect.flatMap((pages) => jsonArrayResponse(pages, (page) => page)), problems)
      )
      .handle("erase", ({ params }) => people.erase(params.id).pipe(problems))
      .handle(
        "exportAthlete",
        ({ params }) =>
          people.exportOfAthlete(params.id).pipe(
            Effect.flatMap((pages) => jsonArrayResponse(pages, (page) => page)),
            problems
          )
      )
      .handle("eraseAthlete", ({ params }) => people.eraseAthlete(params.id).pipe(problems))
  })
)
