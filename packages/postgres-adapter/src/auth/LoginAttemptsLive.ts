import { traced } from "@club/core"
import { type Admission, LoginAttempts, type ThrottledKey } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { valuesFromRow } from "../shared/rowReader.ts"

const admissionFromRow = valuesFromRow({ admitted: Schema.Number, waitMs: Schema.NullOr(Schema.Number) })

/**
 * Failed logins in the database (`login_throttle`), so that every server instance counts the same
 * failures and makes the same clients wait.
 *
 * Locks: an admission takes its keys' rows in key order, and so does a success; the clean-up takes
 * only rows no one holds (SKIP LOCKED) and never waits. So no two statements ever wait on each other
 * in a circle, and no login meets a deadlock.
 */
export const LoginAttemptsLive = Layer.effect(
  LoginAttempts,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * One statement. `waiting` reads the keys as the statement's snapshot saw them: a key still
     * waiting refuses the attempt, and nothing is written. Otherwise each key's row is inserted or
     * counted up, and `ON CONFLICT ... WHERE` checks the wait again on the row's latest version,
     * under its lock: of concurrent attempts that all saw the keys free, the first counts and the
     * others find its count. The attempt is admitted only when every key was counted. A key with
     * no wait (free failures left) admits whatever the times: concurrent attempts are timed before
     * their statements run, so one timed earlier may find a later one's failure already counted.
     */
    const admit = traced("LoginAttempts.admit")(
      function*(
        keys: ReadonlyArray<ThrottledKey>,
        delaysMs: ReadonlyArray<number>,
        atEpochMs: number,
        forgetBeforeEpochMs: number
      ) {
        const sorted = [...new Map(keys.map((key) => [key.key, key])).values()].sort((a, b) => a.key < b.key ? -1 : 1)
        const names = sorted.map((key) => key.key)
        const free = sorted.map((key) => key.freeFailures)
        const delays = delaysMs.map(BigInt)
        const at = BigInt(atEpochMs)
        const forgetBefore = BigInt(forgetBeforeEpochMs)
        // The wait of LoginAttempts.ts's `waitAfter`, for a row `t` and its key's free failures.
        const waitAfter = (t: string, freeFailures: string) =>
          sql.literal(`CASE WHEN ${t}.failures < ${freeFailures} THEN 0
            ELSE (SELECT delays[least(${t}.failures - ${freeFailures}, cardinality(delays) - 1) + 1] FROM schedule) END`)
        const rows = yield* sql`WITH schedule AS (SELECT ${delays}::bigint[] AS delays),
          requested AS (SELECT key, free FROM unnest(${names}::text[], ${free}::int[]) AS requested(key, free)),
          waiting AS (
            SELECT CASE WHEN ${waitAfter("t", "r.free")} = 0 THEN 0
              ELSE t.last_failure_at_ms + ${waitAfter("t", "r.free")} - ${at} END AS wait_ms
            FROM requested r JOIN login_throttle t USING (key)
            WHERE t.last_failure_at_ms >= ${forgetBefore}
          ),
          counted AS (
            INSERT INTO login_throttle AS t (key, failures, last_failure_at_ms)
            SELECT key, 1, ${at} FROM requested WHERE NOT EXISTS (SELECT 1 FROM waiting WHERE wait_ms > 0)
            ORDER BY key
            ON CONFLICT (key) DO UPDATE SET
              failures = CASE WHEN t.last_failure_at_ms < ${forgetBefore} THEN 1 ELSE t.failures + 1 END,
              last_failure_at_ms = CASE WHEN t.last_failure_at_ms < ${forgetBefore} THEN ${at}
                ELSE greatest(t.last_failure_at_ms, ${at}) END
            WHERE t.last_failure_at_ms < ${forgetBefore}
              OR ${waitAfter("t", "(SELECT free FROM requested WHERE requested.key = t.key)")} = 0
              OR t.last_failure_at_ms + ${
          waitAfter("t", "(SELECT free FROM requested WHERE requested.key = t.key)")
        } <= ${at}
            RETURNING t.key
          )
          SELECT (SELECT count(*) FROM counted)::int AS admitted,
            (SELECT max(wait_ms) FROM waiting WHERE wait_ms > 0) AS "waitMs"`
        const row = rows[0] === undefined ? undefined : admissionFromRow(rows[0])
        return (row !== undefined && row.admitted === sorted.length
          ? { _tag: "Admitted" }
          : { _tag: "Refused", waitMs: row?.waitMs ?? 0 }) satisfies Admission as Admission
      },
      dieOnInfrastructureError
    )

    /**
     * Both rows locked first, in key order (as `admit` takes them), and read there at their latest:
     * a released key at its last failure is deleted, not left at zero.
     */
    const succeeded = traced("LoginAttempts.succeeded")(
      function*(cleared: ReadonlyArray<string>, released: ReadonlyArray<string>) {
        const keys = [...new Set([...cleared, ...released])].sort()
        if (keys.length === 0) return
        yield* sql`WITH locked AS (
            SELECT key, failures FROM login_throttle WHERE key = ANY(${keys}::text[]) ORDER BY key FOR UPDATE
          ),
          deleted AS (
            DELETE FROM login_throttle t USING locked l
            WHERE t.key = l.key AND (l.key = ANY(${[...cleared]}::text[]) OR l.failures <= 1)
          )
          UPDATE login_throttle t SET failures = l.failures - 1 FROM locked l
          WHERE t.key = l.key AND l.key = ANY(${[...released]}::text[]) AND NOT (l.key = ANY(${[...cleared]}::text[]))
            AND l.failures > 1`
      },
      dieOnInfrastructureError
    )

    const forget = traced("LoginAttempts.forget")(function*(beforeEpochMs: number) {
      yield* sql`DELETE FROM login_throttle WHERE key IN (
        SELECT key FROM login_throttle WHERE last_failure_at_ms < ${BigInt(beforeEpochMs)} FOR UPDATE SKIP LOCKED)`
    }, dieOnInfrastructureError)

    return LoginAttempts.of({ admit, succeeded, forget })
  })
)
