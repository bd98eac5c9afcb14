import { Clock, Effect, Layer, Option, Random } from "effect"
import type { FeedToken } from "./FeedToken.ts"
import { FeedTokenRepository } from "./FeedTokenRepository.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/**
 * Feed tokens in this layer's memory, keyed by user, with when each was issued (epoch seconds): a
 * token issued before its user's `tokensValidAfter` (a password or role change) opens nothing.
 * Tokens are 43 base64url characters drawn from Effect's `Random`, which is no cryptographic
 * source, and are kept as they are: for tests and examples only. The PostgreSQL store draws them
 * from the system's cryptographic source and keeps only their SHA-256 hashes.
 */
export const InMemoryFeedTokenRepository = Layer.effect(
  FeedTokenRepository,
  Effect.gen(function*() {
    const { feedTokens: byUser, users } = yield* InMemoryStore
    return FeedTokenRepository.of({
      rotate: (userId) =>
        Effect.gen(function*() {
          let token = ""
          for (let i = 0; i < 43; i++) token += alphabet[yield* Random.nextIntBetween(0, 63)]
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const issuedAt = Math.max(now, users.get(userId)?.tokensValidAfter ?? 0)
          byUser.set(userId, { token: token as FeedToken, issuedAt })
          return token as FeedToken
        }),
      revoke: (userId) => Effect.sync(() => byUser.delete(userId)),
      userOf: (token) =>
        Effect.sync(() =>
          Option.fromNullishOr(
            [...byUser].find(([userId, held]) =>
              held.token === token && held.issuedAt >= (users.get(userId)?.tokensValidAfter ?? Infinity)
            )?.[0]
          )
        )
    })
  })
)
