import { FeedTokenRepository, UserRepository } from "@club/core"
import { assert } from "@effect/vitest"
import { Clock, Effect, Option } from "effect"
import { newUser } from "../../core/test/repositoryContract/fixtures.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

onEachDatabase("FeedTokenRepository: tokens ended by a password or role change", (it) => {
  it.effect(
    "a token issued in the same second as a change that ends the user's tokens opens nothing, whatever the fraction of that second",
    () =>
      Effect.gen(function*() {
        const users = yield* UserRepository
        const feeds = yield* FeedTokenRepository
        // The use-case's bound: tokens issued before the next whole second end (UserService). A
        // user per round: a second change within one second cannot end a token issued after the
        // first (the bound's unit is the second, as for bearer tokens).
        for (let round = 0; round < 40; round++) {
          const user = yield* users.create(newUser(`feed-token-owner-${round}`, "COACH"))
          const token = yield* feeds.rotate(user.id)
          const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          yield* users.update(user.id, { revokeTokensIssuedBefore: nowSeconds + 1 })
          assert.isTrue(Option.isNone(yield* feeds.userOf(token)), `round ${round}: the token still opens`)
          yield* Effect.sleep("37 millis")
        }
      }),
    { timeout: 60_000 }
  )

  it.effect("a token issued after the change opens its user's feeds", () =>
    Effect.gen(function*() {
      const users = yield* UserRepository
      const feeds = yield* FeedTokenRepository
      const user = yield* users.create(newUser("feed-token-later", "COACH"))
      const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      yield* users.update(user.id, { revokeTokensIssuedBefore: nowSeconds + 1 })
      const token = yield* feeds.rotate(user.id)
      assert.deepStrictEqual(yield* feeds.userOf(token), Option.some(user.id))
    }))
})
