import { Readiness } from "@club/core"
import { checkStore } from "@club/postgres-adapter"
import { Cause, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export const readinessTimeout = Duration.seconds(2)

/** Ready when the database answers a read of the app's `users` table in time; a failed check is worth a log line, a passing one is not. */
export const ReadinessLive = Layer.effect(
  Readiness,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Readiness.of({
      check: checkStore.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.timeoutOrElse({ duration: readinessTimeout, orElse: () => Effect.fail("timed out" as const) }),
        Effect.as(true),
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.interrupt
            : Effect.logWarning("Not ready: the database does not answer", cause).pipe(Effect.as(false))
        )
      )
    })
  })
)
