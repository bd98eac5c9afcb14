import { Cause, Effect, Option } from "effect"
import { HttpMiddleware, HttpServerError, HttpServerRequest } from "effect/http"
import * as LogLevel from "effect/LogLevel"

/**
 * Effect's request logger writes one JSON line per request at INFO: for a small read, a large share
 * of the work of answering it (README "Performance" has the figures). It runs only when LOG_LEVEL
 * is debug.
 */
export const logsEveryRequest = (level: LogLevel.LogLevel): boolean => LogLevel.isLessThanOrEqualTo(level, "Debug")

/** A failure's cause without the responses the framework carries in it (a 499 for a client gone). */
const defectsOf = (cause: Cause.Cause<unknown>) =>
  Option.filter(HttpServerError.causeResponseStripped(cause)[1], Cause.hasDies)

/** How Node reports a request body cut off by its client: a reset or closed HTTP/2 stream or HTTP/1.1 connection. */
const clientGoneCodes = new Set(["ERR_STREAM_PREMATURE_CLOSE", "ECONNRESET", "ECONNABORTED", "ERR_HTTP2_STREAM_ERROR"])

const codeOf = (
  error: unknown
): unknown => (typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined)

/**
 * Whether a request failed because its client went away while sending the body: nothing the server
 * did wrong, and nobody is left to answer.
 */
const clientWentAway = (defect: unknown) =>
  HttpServerError.isHttpServerError(defect) &&
  defect.reason._tag === "RequestParseError" &&
  (clientGoneCodes.has(String(codeOf(defect.reason.cause))) ||
    (defect.reason.cause as Error | undefined)?.message === "aborted")

/**
 * A request that ends on a defect is logged at every level: without the request logger nothing
 * else reports it (the framework answers 500 and only hands the cause to error reporters). A
 * client that went away mid-request is not a failure of the server: debug at most.
 */
export const logDefects = HttpMiddleware.make((httpApp) =>
  Effect.tapCause(httpApp, (cause) =>
    Option.match(defectsOf(cause), {
      onNone: () => Effect.void,
      onSome: (defects) =>
        Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
          const gone = defects.reasons.filter(Cause.isDieReason).every((reason) => clientWentAway(reason.defect))
          const log = gone
            ? Effect.logDebug("The client went away during its request")
            : Effect.logError("Request failed", defects)
          return log.pipe(Effect.annotateLogs({ "http.method": request.method, "http.url": request.url.split("?")[0] }))
        })
    }))
)
