import { Context, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { InputFailure } from "@club/contract/rest"
import { requestPath } from "./problems.ts"

/**
 * Input the endpoint cannot use, answered in the shape its `InputFailure` annotation names: the
 * seed's pinned body (activity 500 text, athlete update 204, session create 400 text), or the
 * problem `problem` makes for the request path.
 */
export const answerBadInput = <P>(endpoint: HttpApiEndpoint.Top, detail: string, problem: (instance: string) => P) => {
  switch (Context.get(endpoint.annotations, InputFailure)) {
    case "activityText":
      return Effect.succeed(HttpServerResponse.text(`Error: ${detail}`, { status: 500 }))
    case "emptyNoContent":
      return Effect.succeed(HttpServerResponse.empty({ status: 204 }))
    case "badRequestText":
      return Effect.succeed(HttpServerResponse.text(detail, { status: 400 }))
    case "problem":
      return Effect.flatMap(requestPath, (instance) => Effect.fail(problem(instance)))
  }
}
