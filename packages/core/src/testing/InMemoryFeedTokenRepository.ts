import { Effect, Layer, Option, Random } from "effect"
import type { FeedToken } from "../domain/CalendarFeed.ts"
import type { UserId } from "../domain/Ids.ts"
import { FeedTokenRepository } from "../ports/FeedTokenRepository.ts"

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/**
 * Feed tokens in this layer's memory, keyed by user. Tokens are 43 base64url characters drawn
 * from Effect's `Random`, which is no cryptographic source, and are kept as they are: for tests
 * and examples only. The PostgreSQL store draws them from the system's cryptographic source and
 * keeps only their SHA-256 hashes.
 */
export const InMemoryFeedTokenRepository = Layer.sync(FeedTokenRepository, () => {
  const byUser = new Map<UserId, FeedToken>()
  return FeedTokenRepository.of({
    rotate: (userId) =>
      Effect.gen(function*() {
        let token = ""
        for (let i = 0; i < 43; i++) token += alphabet[yield* Random.nextIntBetween(0, 63)]
        byUser.set(userId, token as FeedToken)
        return token as FeedToken
      }),
    revoke: (userId) => Effect.sync(() => byUser.delete(userId)),
    userOf: (token) => Effect.sync(() => Option.fromNullishOr([...byUser].find(([, held]) => held === token)?.[0]))
  })
})
