import { type Claim, IdempotencyKeys, type StoredAnswer, type UserId } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { idempotencyKeysContract } from "../../core/test/repositoryContract/idempotencyKeys.ts"
import { expiredDroppedPerAnswer } from "../src/idempotency/IdempotencyKeysLive.ts"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(idempotencyKeysContract)

const t0 = 1_790_000_000_000
const minute = 60_000
const day = 86_400_000
const created: StoredAnswer = {
  status: 201,
  headers: { "content-type": "application/json" },
  body: new Uint8Array([123, 125])
}

const attemptOf = (claim: Claim): string => {
  if (claim._tag !== "Claimed") throw new Error(`not claimed: ${JSON.stringify(claim)}`)
  return claim.attempt
}

const Expiries = Schema.Array(Schema.Struct({ expires: Schema.String }))

onEachDatabase("IdempotencyKeys: statements", (it) => {
  it.effect("a claim costs one statement, whatever it finds (free, running, answered, abandoned); an answer and a release one each", () =>
    Effect.gen(function*() {
      const keys = yield* IdempotencyKeys
      const request = { caller: 1 as UserId, key: "counted", fingerprint: "f" }
      const fresh = yield* countStatements(keys.claim(request, t0, t0 + day, t0 - minute))
      const running = yield* countStatements(keys.claim(request, t0 + 1, t0 + day, t0 - minute))
      const takenOver = yield* countStatements(keys.claim(request, t0 + 2 * minute, t0 + day, t0 + minute))
      const answer = yield* countStatements(keys.answer(request, attemptOf(takenOver.result), created, t0 + 2 * minute))
      const answered = yield* countStatements(keys.claim(request, t0 + 3 * minute, t0 + day, t0 + 2 * minute))
      const released = yield* countStatements(keys.release(request, attemptOf(fresh.result)))
      expect([fresh, running, takenOver, answered].map((counted) => counted.result._tag))
        .toEqual(["Claimed", "Running", "Claimed", "Answered"])
      for (const counted of [fresh, running, takenOver, answer, answered, released]) {
        expect(counted.statements).toHaveLength(1)
      }
    }))

  it.effect("an answer drops a batch of expired keys, the oldest expiry first, so that no answer pays for a long backlog", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const keys = yield* IdempotencyKeys
      const backlog = expiredDroppedPerAnswer + 50
      yield* sql`INSERT INTO idempotency_keys (user_id, key, fingerprint, attempt, claimed_at_ms, expires_at_ms)
        SELECT 1, 'backlog-' || n, 'f', 'old-' || n, ${BigInt(t0)}, ${
        BigInt(t0)
      } + n FROM generate_series(1, ${backlog}) AS n`
      const request = { caller: 1 as UserId, key: "answered", fingerprint: "f" }
      const attempt = attemptOf(yield* keys.claim(request, t0 + day, t0 + 2 * day, t0))
      yield* keys.answer(request, attempt, created, t0 + day)
      const left = yield* Schema.decodeUnknownEffect(Expiries)(
        yield* sql`SELECT expires_at_ms::text AS expires FROM idempotency_keys WHERE key LIKE 'backlog-%' ORDER BY expires_at_ms`
      )
      expect(left.map((row) => Number(row.expires) - t0)).toEqual(
        Array.from({ length: backlog - expiredDroppedPerAnswer }, (_, i) => expiredDroppedPerAnswer + 1 + i)
      )
    }))
})
