import { Cause, Effect, Option } from "effect"
import { HttpMiddleware, HttpServerError, HttpServerRequest } from "effect/http"
import * as LogLevel from "effect/LogLevel"

/**
 * Effect's request logger writes one JSON line per request at INFO; at the throughput of a small
 * read that cost about a fifth of the server's capacity (README "Performance"). It runs only when
 * LOG_LEVEL is debug.
 */
export const logsEveryRequest = (level: LogLevel.LogLevel): boolean => LogLevel.isLessThanOrEqualTo(level, "Debug")

/** A failure's cause without the responses the framework carries in it (a 499 for a client gone). */
const defectsOf = (cause: Cause.Cause<unknown>) =>
  Option.filter(HttpServerError.causeResponseStripped(cause)[1], Cause.hasDies)

/**
 * A request that ends on a defect is logged at every level: without the request logger nothing
 * else reports it (the framework answers 500 and only hands the cause to error reporters).
 */
export const logDefects = HttpMiddleware.make((httpApp) =>
  Effect.tapCause(httpApp, (cause) =>
    Option.match(defectsOf(cause), {
      onNone: () => Effect.void,
      onSome: (defects) =>
        Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
          Effect.logError("Request failed", defects).pipe(
            Effect.annotateLogs({ "http.method": request.method, "http.url": request.url.split("?")[0] })
          ))
    }))
)
