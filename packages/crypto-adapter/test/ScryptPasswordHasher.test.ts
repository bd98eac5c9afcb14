import { PasswordHasher } from "@club/core"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as ScryptPasswordHasher from "../src/ScryptPasswordHasher.ts"

const password = Redacted.make("correct horse battery staple")

const withHasher = <A, E>(f: (hasher: PasswordHasher["Service"]) => Effect.Effect<A, E>) =>
  PasswordHasher.use(f).pipe(Effect.provide(ScryptPasswordHasher.layer()))

describe("ScryptPasswordHasher", () => {
  it.effect("verifies the password it hashed", () =>
    withHasher((hasher) =>
      Effect.gen(function*() {
        const hash = yield* hasher.hash(password)
        assert.isTrue(yield* hasher.verify(password, hash))
      })
    ))

  it.effect("refuses another password", () =>
    withHasher((hasher) =>
      Effect.gen(function*() {
        const hash = yield* hasher.hash(password)
        assert.isFalse(yield* hasher.verify(Redacted.make("correct horse battery stapler"), hash))
        assert.isFalse(yield* hasher.verify(Redacted.make(""), hash))
      })
    ))

  it.effect("salts every hash: the same password hashes differently", () =>
    withHasher((hasher) =>
      Effect.gen(function*() {
        const [first, second] = yield* Effect.all([hasher.hash(password), hasher.hash(password)])
        assert.notStrictEqual(Redacted.value(first), Redacted.value(second))
        const salt = (hash: Redacted.Redacted<string>) => Redacted.value(hash).split("$")[4]
        assert.notStrictEqual(salt(first), salt(second))
      })
    ))

  it.effect("stores its parameters and salt in the hash, never the password", () =>
    withHasher((hasher) =>
      Effect.gen(function*() {
        const hash = Redacted.value(yield* hasher.hash(password))
        assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/)
        assert.notInclude(hash, Redacted.value(password))
      })
    ))

  it.effect("verifies hashes made with other parameters", () =>
    Effect.gen(function*() {
      const cheap = ScryptPasswordHasher.make({ N: 2 ** 10, r: 8, p: 1 })
      const hash = yield* cheap.hash(password)
      assert.isTrue(yield* ScryptPasswordHasher.make().verify(password, hash))
    }))

  it.effect("answers false for a malformed or oversized hash instead of failing", () =>
    withHasher((hasher) =>
      Effect.gen(function*() {
        const valid = Redacted.value(yield* hasher.hash(password))
        const [, , r, p, salt, key] = valid.split("$")
        for (
          const broken of [
            "",
            "plain",
            `bcrypt$32768$${r}$${p}$${salt}$${key}`,
            `scrypt$1000$${r}$${p}$${salt}$${key}`,
            `scrypt$${2 ** 24}$${r}$${p}$${salt}$${key}`,
            `scrypt$32768$${r}$${p}$${salt}$${key}x`,
            valid.slice(0, -4)
          ]
        ) {
          assert.isFalse(yield* hasher.verify(password, Redacted.make(broken)), broken)
        }
      })
    ))

  // What a verification costs is measured by the bench (`POST /auth/login`, where scrypt is nearly
  // all of a request's CPU: README "Performance"), not here: a bound on CPU time in this test failed
  // on a slower host. What a test can say on any host is where the work runs.
  it.live("spends a verification off the event loop: timers keep firing while scrypt runs", () =>
    withHasher((hasher) =>
      Effect.gen(function*() {
        const hash = yield* hasher.hash(password)
        let ticks = 0
        const timer = setInterval(() => ticks++, 1)
        yield* hasher.verify(password, hash)
        clearInterval(timer)
        assert.isAbove(ticks, 0)
      })
    ))
})
