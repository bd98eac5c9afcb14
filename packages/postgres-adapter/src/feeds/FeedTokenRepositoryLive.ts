import { type FeedToken, FeedTokenRepository, traced, type UserId } from "@club/core"
import { createHash, randomBytes } from "node:crypto"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { auditedWrite } from "../shared/transaction.ts"

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest()

/**
 * Feed tokens: 32 bytes of the system's cryptographic source, in base64url; only their SHA-256 is
 * stored, with when it was issued: a password or role change ends it as it ends bearer tokens.
 */
export const FeedTokenRepositoryLive = Layer.effect(
  FeedTokenRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const rotate = traced("FeedTokenRepository.rotate")(function*(userId: UserId) {
      const token = randomBytes(32).toString("base64url") as FeedToken
      // Issued no earlier than the user's bound, which a change made this very second sets to the next one.
      // The whole second it was issued in, as a bearer token's `iat`: a cast alone would round a late
      // fraction up to the next second, and a change made in the same second would not end the token.
      yield* auditedWrite(sql)(sql`INSERT INTO feed_tokens (user_id, token_hash, issued_at)
        SELECT ${userId}, ${hashOf(token)},
          GREATEST(floor(extract(epoch FROM now()))::bigint, (SELECT tokens_valid_after FROM users WHERE id = ${userId}))
        ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, issued_at = EXCLUDED.issued_at`)
      return token
    }, dieOnInfrastructureError)

    const revoke = traced("FeedTokenRepository.revoke")(function*(userId: UserId) {
      const removed = yield* auditedWrite(sql)(sql`DELETE FROM feed_tokens WHERE user_id = ${userId} RETURNING user_id`)
      return removed.length > 0
    }, dieOnInfrastructureError)

    const userOf = traced("FeedTokenRepository.userOf")(function*(token: FeedToken) {
      // A token issued before its user's tokens were ended (a password or role change) opens nothing.
      const rows = yield* sql<{ readonly user_id: string | number }>`SELECT f.user_id FROM feed_tokens f
        JOIN users u ON u.id = f.user_id
        WHERE f.token_hash = ${hashOf(token)} AND f.issued_at >= u.tokens_valid_after`
      return Option.map(Option.fromNullishOr(rows[0]), (row) => Number(row.user_id) as UserId)
    }, dieOnInfrastructureError)

    return FeedTokenRepository.of({ rotate, revoke, userOf })
  })
)
