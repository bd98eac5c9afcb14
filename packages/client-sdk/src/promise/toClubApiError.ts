import { Cause, Effect, Option, Schema } from "effect"
import { HttpClientError } from "effect/http"
import type { RestError } from "../rest/RestError.ts"
import { TodoRpcError } from "../todo/TodoRpcError.ts"
import { ClubApiError } from "./ClubApiError.ts"
import { fromContractError } from "./fromContractError.ts"
import { fromHttpClientError } from "./fromHttpClientError.ts"
import { fromTodoRpcError } from "./fromTodoRpcError.ts"
import { InvalidInput } from "./InvalidInput.ts"

export type CallError = RestError | TodoRpcError | InvalidInput

const fromError = (error: CallError): Effect.Effect<ClubApiError> => {
  if (error instanceof InvalidInput) {
    return Effect.succeed(new ClubApiError({ tag: "InvalidInput", message: error.message, cause: error.cause }))
  }
  if (error instanceof TodoRpcError) return Effect.succeed(fromTodoRpcError(error))
  if (HttpClientError.isHttpClientError(error)) return fromHttpClientError(error)
  // The arguments were decoded before the call, so a schema failure here is about the answer.
  if (Schema.isSchemaError(error)) {
    return Effect.succeed(
      new ClubApiError({
        tag: "UnexpectedResponse",
        message: `The server's answer does not match the contract: ${error.message}`,
        cause: error
      })
    )
  }
  return Effect.succeed(fromContractError(error))
}

/** Every way a call can end badly, as the one error class of the Promise face. */
export const toClubApiError = (cause: Cause.Cause<CallError>): Effect.Effect<ClubApiError> =>
  Option.match(Cause.findErrorOption(cause), {
    onSome: fromError,
    onNone: () =>
      Effect.succeed(new ClubApiError({ tag: "Defect", message: Cause.pretty(cause), cause: Cause.squash(cause) }))
  })
