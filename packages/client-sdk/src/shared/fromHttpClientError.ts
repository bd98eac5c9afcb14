import { Effect } from "effect"
import type { HttpClientError } from "effect/http"
import type { SeenAnswer } from "./CallSettings.ts"
import { ClubApiError } from "./ClubApiError.ts"

/** The problem's `detail`, or the plain-text body, when the server gave either. */
const messageOf = (body: string): string | undefined => {
  const text = body.trim()
  if (text === "") return undefined
  try {
    const json: unknown = JSON.parse(text)
    if (typeof json === "object" && json !== null) {
      const { detail, message, title } = json as Record<string, unknown>
      const found = [detail, message, title].find((value) => typeof value === "string")
      if (typeof found === "string") return found
    }
  } catch {
    // Not JSON: the body is the message.
  }
  return text
}

/** No response: a network failure. A response the contract does not declare (e.g. 413, 415, 5xx): unexpected. */
export const fromHttpClientError = (
  error: HttpClientError.HttpClientError,
  seen: SeenAnswer
): Effect.Effect<ClubApiError> => {
  const response = error.response
  if (response === undefined) {
    return Effect.succeed(new ClubApiError({ tag: "NetworkError", message: error.message, cause: error }))
  }
  return response.text.pipe(
    Effect.map(messageOf),
    Effect.orElseSucceed(() => undefined),
    Effect.map((message) =>
      new ClubApiError({
        tag: "UnexpectedResponse",
        status: response.status,
        message: message ?? error.message,
        retryAfter: seen.retryAfterMs === undefined ? undefined : Math.ceil(seen.retryAfterMs / 1000),
        requestId: response.headers["x-request-id"] ?? seen.requestId,
        cause: error
      })
    )
  )
}
