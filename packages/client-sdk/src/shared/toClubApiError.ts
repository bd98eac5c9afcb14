import { Cause, Effect, Option, Schema } from "effect"
import { HttpClientError } from "effect/http"
import type { RestError } from "../rest/RestError.ts"
import type { SeenAnswer } from "./CallSettings.ts"
import type { TodoRpcError } from "../todo/TodoRpcError.ts"
import { CallTimedOut } from "./CallEnded.ts"
import { ClubApiError } from "./ClubApiError.ts"
import { fromContractError } from "./fromContractError.ts"
import { fromHttpClientError } from "./fromHttpClientError.ts"
import { fromTodoRpcError } from "./fromTodoRpcError.ts"
import { InvalidInput } from "./InvalidInput.ts"

export type CallError = RestError | TodoRpcError | InvalidInput | CallTimedOut

const isTodoRpcError = (error: CallError): error is TodoRpcError => error._tag === "TodoRpcError"

const fromError = (error: CallError, seen: SeenAnswer): Effect.Effect<ClubApiError> => {
  if (error instanceof InvalidInput) {
    return Effect.succeed(new ClubApiError({ tag: "InvalidInput", message: error.message, cause: error.cause }))
  }
  if (error instanceof CallTimedOut) {
    const message = `The call took longer than ${error.timeoutMs} ms and was abandoned`
    return Effect.succeed(new ClubApiError({ tag: "Timeout", message, requestId: seen.requestId, cause: error }))
  }
  if (isTodoRpcError(error)) return Effect.succeed(fromTodoRpcError(error, seen))
  if (HttpClientError.isHttpClientError(error)) return fromHttpClientError(error, seen)
  // The arguments were checked before the call, so a schema failure here is about the answer.
  if (Schema.isSchemaError(error)) {
    return Effect.succeed(
      new ClubApiError({
        tag: "UnexpectedResponse",
        status: seen.status,
        message: `The server's answer does not match the contract: ${error.message}`,
        requestId: seen.requestId,
        cause: error
      })
    )
  }
  return Effect.succeed(fromContractError(error, seen))
}

/** Every way a call can end badly, as the one error class of the Promise face. */
export const toClubApiError = (cause: Cause.Cause<CallError>, seen: SeenAnswer): Effect.Effect<ClubApiError> =>
  Option.match(Cause.findErrorOption(cause), {
    onSome: (error) => fromError(error, seen),
    onNone: () =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.succeed(
          new ClubApiError({ tag: "Aborted", message: "The call was aborted", requestId: seen.requestId })
        )
        : Effect.succeed(new ClubApiError({ tag: "Defect", message: Cause.pretty(cause), cause: Cause.squash(cause) }))
  })
