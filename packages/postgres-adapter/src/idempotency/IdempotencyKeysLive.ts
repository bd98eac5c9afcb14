import { type Claim, IdempotencyKeys, type KeyedRequest, type StoredAnswer, traced } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { randomUUID } from "node:crypto"
import { readRows, valuesFromRow } from "../shared/rowReader.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { toDefect } from "../shared/outage.ts"
import { transaction } from "../shared/transaction.ts"

const ClaimRow = Schema.Struct({
  locked: Schema.Boolean,
  claimed: Schema.Boolean,
  fingerprint: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.Int),
  headers: Schema.NullOr(Schema.Record(Schema.String, Schema.String)),
  body: Schema.NullOr(Schema.Uint8Array)
})
type ClaimRow = typeof ClaimRow.Type
const claimFromRow = valuesFromRow(ClaimRow.fields)

/** Of the kept rows, this many expired ones are dropped with each answer kept: more than one write creates. */
export const expiredDroppedPerAnswer = 100

/** A claim that found its key taken and then gone again (released meanwhile) is tried this many times more. */
const retriesWhenGone = 3

const claimOf = (row: ClaimRow, attempt: string, fingerprint: string): Claim | undefined => {
  // Held inside a transaction not ended yet (`atomically`): its row cannot be seen, nor waited for.
  if (!row.locked) return { _tag: "Running", fingerprint }
  if (row.claimed) return { _tag: "Claimed", attempt }
  if (row.fingerprint === null) return undefined
  return row.status === null
    ? { _tag: "Running", fingerprint: row.fingerprint }
    : {
      _tag: "Answered",
      fingerprint: row.fingerprint,
      answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? new Uint8Array() }
    }
}

/**
 * Idempotency keys in the database (`idempotency_keys`), so that a write retried through any
 * instance is served once.
 */
export const IdempotencyKeysLive = Layer.effect(
  IdempotencyKeys,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * One statement. First the key's advisory lock, held to the end of the transaction: a claim
     * inside `atomically` holds it until its write commits or rolls back, and a claim that does not
     * get it finds the key running (its row, not committed yet, can be neither seen nor waited for
     * without holding a connection). With the lock, the key is inserted, or taken over when its hold
     * expired or was abandoned; `ON CONFLICT ... WHERE` judges that on the row's latest version,
     * under its lock, so that of concurrent claims exactly one wins. Otherwise the row is read as
     * this statement's snapshot saw it. A row committed by a concurrent claim after that snapshot
     * was taken is not seen there (no row at all comes back): it is read again by a statement of
     * its own.
     */
    const claimOnce = (
      request: KeyedRequest,
      attempt: string,
      at: bigint,
      expiresAt: bigint,
      abandonedBefore: bigint
    ) => {
      const caller = BigInt(request.caller)
      return Effect.flatMap(
        sql`WITH lock AS MATERIALIZED (
            SELECT pg_try_advisory_xact_lock(hashtextextended(${caller}::text || ' ' || ${request.key}, 0)) AS held
          ),
          claimed AS (
            INSERT INTO idempotency_keys AS k (user_id, key, fingerprint, attempt, claimed_at_ms, expires_at_ms)
            SELECT ${caller}, ${request.key}, ${request.fingerprint}, ${attempt}, ${at}, ${expiresAt} FROM lock WHERE held
            ON CONFLICT (user_id, key) DO UPDATE SET
              fingerprint = EXCLUDED.fingerprint, attempt = EXCLUDED.attempt, claimed_at_ms = EXCLUDED.claimed_at_ms,
              expires_at_ms = EXCLUDED.expires_at_ms, status = NULL, headers = NULL, body = NULL
            WHERE k.expires_at_ms <= ${at} OR (k.status IS NULL AND k.claimed_at_ms < ${abandonedBefore})
            RETURNING 1
          )
          SELECT true AS locked, true AS claimed, NULL AS fingerprint, NULL::integer AS status, NULL::jsonb AS headers,
            NULL::bytea AS body
          FROM claimed
          UNION ALL
          SELECT true, false, fingerprint, status, headers, body FROM idempotency_keys
          WHERE user_id = ${caller} AND key = ${request.key} AND NOT EXISTS (SELECT 1 FROM claimed)
            AND (SELECT held FROM lock)
          UNION ALL
          SELECT false, false, NULL, NULL, NULL, NULL FROM lock WHERE NOT held`,
        (rows) => Effect.sync(() => readRows(claimFromRow)(rows))
      )
    }

    const readKey = (request: KeyedRequest) =>
      Effect.flatMap(
        sql`SELECT true AS locked, false AS claimed, fingerprint, status, headers, body FROM idempotency_keys
          WHERE user_id = ${BigInt(request.caller)} AND key = ${request.key}`,
        (rows) => Effect.sync(() => readRows(claimFromRow)(rows))
      )

    const claim = traced("IdempotencyKeys.claim")(
      function*(request: KeyedRequest, atEpochMs: number, expiresAtEpochMs: number, abandonedBeforeEpochMs: number) {
        const attempt = randomUUID()
        const at = BigInt(atEpochMs)
        for (let tries = 0; tries <= retriesWhenGone; tries++) {
          const [row] = yield* claimOnce(request, attempt, at, BigInt(expiresAtEpochMs), BigInt(abandonedBeforeEpochMs))
          const found = row === undefined ? undefined : claimOf(row, attempt, request.fingerprint)
          if (found !== undefined) return found
          // Claimed by a request this statement's snapshot did not see yet: read it now.
          const [latest] = yield* readKey(request)
          const seen = latest === undefined ? undefined : claimOf(latest, attempt, request.fingerprint)
          if (seen !== undefined) return seen
        }
        // Claimed and released again and again meanwhile: as busy as a running request.
        return { _tag: "Running", fingerprint: request.fingerprint } satisfies Claim as Claim
      },
      dieOnInfrastructureError
    )

    /**
     * The answer is kept only while `attempt` holds the key; expired keys (not this one) are dropped
     * a few at a time, skipping any another statement holds, so that no one waits on the clean-up.
     */
    const answer = traced("IdempotencyKeys.answer")(
      function*(request: KeyedRequest, attempt: string, stored: StoredAnswer, atEpochMs: number) {
        const caller = BigInt(request.caller)
        yield* sql`WITH expired AS (
            DELETE FROM idempotency_keys WHERE (user_id, key) IN (
              SELECT user_id, key FROM idempotency_keys
              WHERE expires_at_ms <= ${BigInt(atEpochMs)} AND NOT (user_id = ${caller} AND key = ${request.key})
              ORDER BY expires_at_ms LIMIT ${expiredDroppedPerAnswer} FOR UPDATE SKIP LOCKED)
          )
          UPDATE idempotency_keys SET status = ${stored.status}, headers = ${JSON.stringify(stored.headers)}::jsonb,
            body = ${stored.body}
          WHERE user_id = ${caller} AND key = ${request.key} AND attempt = ${attempt}`
      },
      dieOnInfrastructureError
    )

    const release = traced("IdempotencyKeys.release")(function*(request: KeyedRequest, attempt: string) {
      const caller = BigInt(request.caller)
      yield* sql`DELETE FROM idempotency_keys
        WHERE user_id = ${caller} AND key = ${request.key} AND attempt = ${attempt} AND status IS NULL`
    }, dieOnInfrastructureError)

    // The claim, the repositories' writes (they join the transaction) and the answer commit together.
    // A failure to begin (the transaction's only SqlError: the effect's ports die on theirs) is a
    // defect, an outage as any statement's.
    const atomically = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.catchIf(
        transaction(sql)(effect) as Effect.Effect<A, unknown, R>,
        SqlError.isSqlError,
        (error) => Effect.die(toDefect(error))
      ) as Effect.Effect<A, E, R>

    return IdempotencyKeys.of({ claim, answer, release, atomically })
  })
)
