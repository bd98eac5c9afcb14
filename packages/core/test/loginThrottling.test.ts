import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { AuthService, PasswordHasher, TokenSigner, User, type UserId, UserRepository } from "../src/index.ts"
import {
  InMemoryGroupRepository,
  InMemoryGuardianshipRepository,
  InMemoryLoginAttempts,
  InMemoryOutbox,
  InMemoryStore
} from "../src/testing.ts"

// Core's defaults: 5 failures free per name at an address, 20 per address, then 1 s doubling up to 300 s.
const admin = new User({
  id: 1 as UserId,
  name: "admin",
  email: null,
  role: "ADMIN",
  coachId: null,
  athleteId: null,
  adminId: null
})
const rightPassword = "the-right-password"
const attacker = "203.0.113.66"
const adminAddress = "198.51.100.7"

const Users = Layer.succeed(
  UserRepository,
  UserRepository.of({
    findCredentialsByName: (name: string) =>
      Effect.succeed(
        name === admin.name
          ? Option.some({ user: admin, passwordHash: Redacted.make(`hashed:${rightPassword}`), tokensValidAfter: 0 })
          : Option.none()
      )
  } as never)
)

/** A hash that takes `hashTime` (on the test clock): long enough for concurrent attempts to overlap. */
const hasher = (hashTime: number) =>
  Layer.succeed(
    PasswordHasher,
    PasswordHasher.of({
      hash: (password) => Effect.sleep(hashTime).pipe(Effect.as(Redacted.make(`hashed:${Redacted.value(password)}`))),
      verify: (password, hash) =>
        Effect.sleep(hashTime).pipe(Effect.as(Redacted.value(hash) === `hashed:${Redacted.value(password)}`))
    })
  )

const Signer = Layer.succeed(
  TokenSigner,
  TokenSigner.of({ sign: () => Effect.succeed("a-token"), verify: () => Effect.die("not used") })
)

/** The use-case on a fresh in-memory store, which is provided too, for the tests to look at. */
const authService = (hashTime = 0) => ({
  layer: AuthService.layer.pipe(
    Layer.provide(
      Layer.mergeAll(
        Users,
        hasher(hashTime),
        Signer,
        InMemoryLoginAttempts,
        InMemoryGuardianshipRepository,
        InMemoryGroupRepository
      )
    ),
    Layer.provideMerge(InMemoryStore.layer),
    Layer.provideMerge(InMemoryOutbox.layer)
  )
})

/** The failures the store holds, by key. */
const stored = InMemoryStore.useSync((store) => store.loginFailures)

/** What a client sees: "ok", "401", or "429 retry after N s". */
const login = (name: string, password: string, from: string | null) =>
  AuthService.use((auth) => auth.login({ name, password: Redacted.make(password), clientAddress: from })).pipe(
    Effect.as("ok"),
    Effect.catchTags({
      Unauthenticated: () => Effect.succeed("401"),
      RateLimited: (error) => Effect.succeed(`429 retry after ${error.retryAfterSeconds} s`)
    })
  )

const wait = (seconds: number) => TestClock.adjust(`${seconds * 1000} millis`)

describe("Login throttling", () => {
  it.effect("5 failures for a name at an address are free; then each attempt waits 1 s, 2 s, 4 s, ... up to 300 s", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 5; i++) expect(yield* login("admin", `wrong-${i}`, attacker)).toBe("401")
      const waits: Array<string> = []
      for (let i = 0; i < 11; i++) {
        const refused = yield* login("admin", "wrong", attacker)
        waits.push(refused)
        yield* wait(Number(/after (\d+) s/u.exec(refused)![1]))
        expect(yield* login("admin", "wrong", attacker)).toBe("401")
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map((s) => `429 retry after ${s} s`))
    }).pipe(Effect.provide(layer))
  })

  it.effect("Retry-After is what is left of the wait, rounded up to whole seconds", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 5; i++) yield* login("admin", "wrong", attacker)
      yield* wait(1)
      expect(yield* login("admin", "wrong", attacker)).toBe("401")
      yield* wait(0.5)
      expect(yield* login("admin", "wrong", attacker)).toBe("429 retry after 2 s")
      yield* wait(1.2)
      expect(yield* login("admin", "wrong", attacker)).toBe("429 retry after 1 s")
    }).pipe(Effect.provide(layer))
  })

  it.effect("while a pair waits, the right password is refused too; once the wait is over it logs in", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 5; i++) yield* login("admin", "wrong", adminAddress)
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("429 retry after 1 s")
      yield* wait(1)
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("ok")
    }).pipe(Effect.provide(layer))
  })

  it.effect("an attacker failing for the admin's name, however often, never makes the admin at another address wait", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 0; i < 40; i++) {
        const answer = yield* login("admin", `guess-${i}`, attacker)
        if (answer.startsWith("429")) yield* wait(Number(/after (\d+) s/u.exec(answer)![1]))
      }
      yield* login("admin", "wrong", attacker)
      expect(yield* login("admin", "wrong", attacker)).toMatch(/^429/u)
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("ok")
      // The admin's own mistakes have their own free failures.
      for (let i = 1; i <= 5; i++) expect(yield* login("admin", "typo", adminAddress)).toBe("401")
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("429 retry after 1 s")
    }).pipe(Effect.provide(layer))
  })

  it.effect("20 failures from an address, whatever the names, make every attempt from it wait, the right password too; other addresses do not", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 20; i++) expect(yield* login(`stranger-${i}`, "wrong", attacker)).toBe("401")
      expect(yield* login("someone-new", "wrong", attacker)).toBe("429 retry after 1 s")
      expect(yield* login("admin", rightPassword, attacker)).toBe("429 retry after 1 s")
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("ok")
      expect(yield* login("someone-new", "wrong", adminAddress)).toBe("401")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a success clears the failures of its name at that address, not those of the address", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 4; i++) expect(yield* login("admin", "wrong", attacker)).toBe("401")
      expect(yield* login("admin", rightPassword, attacker)).toBe("ok")
      // The name starts afresh at that address: 5 free failures again.
      for (let i = 1; i <= 5; i++) expect(yield* login("admin", "wrong", attacker)).toBe("401")
      expect([...(yield* stored).entries()].filter(([key]) => key.startsWith("address:"))).toEqual([
        [`address:${attacker}`, { failures: 9, lastFailureEpochMs: 0 }]
      ])
      // The address kept its 9: 11 more and it waits, as if the success had not been there.
      for (let i = 1; i <= 11; i++) expect(yield* login(`stranger-${i}`, "wrong", attacker)).toBe("401")
      expect(yield* login("stranger-12", "wrong", attacker)).toBe("429 retry after 1 s")
    }).pipe(Effect.provide(layer))
  })

  it.effect("failures are forgotten once 15 minutes pass without a new one", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 5; i++) yield* login("admin", "wrong", attacker)
      yield* wait(1)
      yield* login("admin", "wrong", attacker)
      expect(yield* login("admin", "wrong", attacker)).toBe("429 retry after 2 s")
      yield* wait(899)
      expect(yield* login("admin", "wrong", attacker)).toBe("401")
      expect((yield* stored).get(`address:${attacker}`)).toEqual({ failures: 7, lastFailureEpochMs: 900_000 })
      yield* wait(901)
      for (let i = 1; i <= 5; i++) expect(yield* login("admin", "wrong", attacker)).toBe("401")
      // The next failure's clean-up dropped nothing still counting; the store holds the two keys.
      expect((yield* stored).size).toBe(2)
    }).pipe(Effect.provide(layer))
  })

  it.effect("concurrent attempts are admitted one at a time: a burst gets the free failures, not more", () => {
    const { layer } = authService(100)
    return Effect.gen(function*() {
      const burst = yield* Effect.forkChild(
        Effect.all(Array.from({ length: 12 }, (_, i) => login("admin", `guess-${i}`, attacker)), {
          concurrency: "unbounded"
        })
      )
      yield* wait(1)
      const answers = yield* Fiber.join(burst)
      expect(answers.filter((answer) => answer === "401")).toHaveLength(5)
      expect(answers.filter((answer) => answer === "429 retry after 1 s")).toHaveLength(7)
    }).pipe(Effect.provide(layer))
  })

  // On the real clock: an interruption waits for the attempt's verdict, which needs its hash to end.
  it.live("an attempt whose caller goes away once admitted is still judged: the right password counts no failure, a wrong one counts one", () => {
    const { layer } = authService(200)
    return Effect.gen(function*() {
      // A client that closes its connection while the hash runs (a load generator's end of run, a
      // phone losing its network): its request's fiber is interrupted.
      const failuresCounted = Effect.map(stored, (failures) => [...failures.values()].map((f) => f.failures))
      const abandoned = (password: string) =>
        Effect.gen(function*() {
          const before = JSON.stringify(yield* failuresCounted)
          const attempt = yield* Effect.forkChild(login("admin", password, adminAddress))
          // Once admitted (counted as a failure until judged), while its hash runs.
          while (JSON.stringify(yield* failuresCounted) === before && attempt.pollUnsafe() === undefined) {
            yield* Effect.sleep("1 millis")
          }
          expect(attempt.pollUnsafe(), "still hashing when its caller goes away (a refused attempt ends at once)")
            .toBeUndefined()
          yield* Fiber.interrupt(attempt)
        })
      for (let i = 0; i < 8; i++) yield* abandoned(rightPassword)
      expect(yield* stored).toEqual(new Map())
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("ok")
      for (let i = 0; i < 5; i++) yield* abandoned(`guess-${i}`)
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("429 retry after 1 s")
    }).pipe(Effect.provide(layer))
  })

  it.effect("a client whose address is unknown is throttled with every other such client, never with a known address", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (let i = 1; i <= 5; i++) expect(yield* login("admin", "wrong", null)).toBe("401")
      expect(yield* login("admin", rightPassword, null)).toBe("429 retry after 1 s")
      expect(yield* login("admin", rightPassword, adminAddress)).toBe("ok")
    }).pipe(Effect.provide(layer))
  })

  it.effect("the name counts whatever its case", () => {
    const { layer } = authService()
    return Effect.gen(function*() {
      for (const name of ["admin", "Admin", "ADMIN", "aDmin", "admiN"]) {
        expect(yield* login(name, "wrong", attacker)).toBe("401")
      }
      expect(yield* login("AdMiN", "wrong", attacker)).toBe("429 retry after 1 s")
    }).pipe(Effect.provide(layer))
  })
})
