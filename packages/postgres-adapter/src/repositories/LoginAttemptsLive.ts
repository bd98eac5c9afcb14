import { traced } from "@club/core"
import { LoginAttempts } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { Int64 } from "../sql/Int64.ts"

const FailureCounts = Schema.Array(Schema.Struct({
  key: Schema.String,
  count: Schema.Int,
  oldestEpochMs: Int64
}))

/** Failed logins in the database, so that every server instance counts the same failures. */
export const LoginAttemptsLive = Layer.effect(
  LoginAttempts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeCounts = Schema.decodeUnknownEffect(FailureCounts)

    /** Keys without failures in the window are absent from the result. */
    const failuresSince = traced("LoginAttempts.failuresSince")(
      function*(keys: ReadonlyArray<string>, sinceEpochMs: number) {
        if (keys.length === 0) return []
        const rows = yield* sql`SELECT key, count(*)::int AS count, min(failed_at_ms) AS "oldestEpochMs"
          FROM login_failures
          WHERE key = ANY(${Array.from(new Set(keys))}::text[]) AND failed_at_ms >= ${BigInt(sinceEpochMs)}
          GROUP BY key ORDER BY key`
        return yield* decodeCounts(rows)
      },
      dieOnInfrastructureError
    )

    const recordFailure = traced("LoginAttempts.recordFailure")(
      function*(keys: ReadonlyArray<string>, atEpochMs: number, forgetBeforeEpochMs: number) {
        if (keys.length === 0) return
        yield* sql`WITH forgotten AS (DELETE FROM login_failures WHERE failed_at_ms < ${BigInt(forgetBeforeEpochMs)})
          INSERT INTO login_failures (key, failed_at_ms)
          SELECT key, ${BigInt(atEpochMs)} FROM unnest(${Array.from(new Set(keys))}::text[]) AS key`
      },
      dieOnInfrastructureError
    )

    const clear = traced("LoginAttempts.clear")(function*(key: string) {
      yield* sql`DELETE FROM login_failures WHERE key = ${key}`
    }, dieOnInfrastructureError)

    return LoginAttempts.of({ failuresSince, recordFailure, clear })
  })
)
