import { AthleteRepository, type UserCredentials, type UserId, UserRepository } from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { instanceB, Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"
import { Context, Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { CredentialsCache } from "../src/users/CredentialsCache.ts"
import { countStatements } from "../src/testing/index.ts"
import { newUser } from "../../core/test/repositoryContract/fixtures.ts"

/** How long B may take to hear of A's write; it typically takes a few ms (one notification). */
const notificationBoundMs = 500

const InstancesLive = instancesLive({ maxConnectionsOfB: 2 })

const on = (context: Context.Context<InstanceServices>) => <A, E>(effect: Effect.Effect<A, E, InstanceServices>) =>
  Effect.provide(effect, context)

const users = (context: Context.Context<InstanceServices>) => Context.get(context, UserRepository)

/** Waits until the instance's cache answers from memory (its LISTEN confirmed), for at most `ms`. */
const cacheOn = (context: Context.Context<InstanceServices>, ms = 5_000) =>
  Effect.gen(function*() {
    const cache = Context.get(context, CredentialsCache)
    const start = performance.now()
    while (!(yield* cache.active)) {
      if (performance.now() - start > ms) return yield* Effect.die(`the credentials cache stayed off for ${ms} ms`)
      yield* Effect.sleep("5 millis")
    }
  })

/** One read of `id`'s credentials through the instance, and how many statements it ran (0: from the cache). */
const read = (context: Context.Context<InstanceServices>, id: UserId) =>
  countStatements(users(context).findCredentialsById(id)).pipe(
    Effect.map(({ result, statements }) => ({ credentials: result, statements: statements.length }))
  )

/**
 * Reads through B until `seen` holds, polling every ms, for at most `notificationBoundMs`: the
 * notification of A's commit reaches B's LISTEN connection asynchronously, so B's very first read
 * can come before it. Answers after how many ms it held (Infinity: never).
 */
const seenWithin = (
  context: Context.Context<InstanceServices>,
  id: UserId,
  seen: (credentials: Option.Option<UserCredentials>) => boolean
) =>
  Effect.gen(function*() {
    const start = performance.now()
    for (;;) {
      const elapsed = performance.now() - start
      if (seen((yield* read(context, id)).credentials)) return elapsed
      if (elapsed > notificationBoundMs) return Infinity
      yield* Effect.sleep("1 millis")
    }
  })

const roleOf = (credentials: Option.Option<UserCredentials>) => Option.getOrUndefined(credentials)?.user.role

const Terminated = Schema.Array(Schema.Struct({ terminated: Schema.Boolean }))

/** Ends B's LISTEN connection from the server side, as a database restart or a cut connection does. */
const cutListenOfB = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* Schema.decodeUnknownEffect(Terminated)(
    yield* sql`SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${instanceB} AND query LIKE 'LISTEN%'`
  )
})

describe.skipIf(!serverAvailable)("Credentials cache across two instances [PostgreSQL server]", () => {
  layer(InstancesLive, { timeout: "2 minutes", excludeTestServices: true })((it) => {
    it.effect("a role change, a password change, an unlinking delete and a user delete made through A are seen by B's next read", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        yield* cacheOn(a)
        yield* cacheOn(b)
        const user = yield* users(a).create(newUser("changed-on-a", "COACH"))

        expect((yield* read(b, user.id)).statements).toBe(1)
        const cached = yield* read(b, user.id)
        expect(cached.statements).toBe(0)
        expect(roleOf(cached.credentials)).toBe("COACH")

        yield* users(a).update(user.id, { role: "ATHLETE", link: "create" })
        const roleSeenMs = yield* seenWithin(b, user.id, (found) => roleOf(found) === "ATHLETE")
        expect(roleSeenMs).toBeLessThanOrEqual(notificationBoundMs)

        yield* read(b, user.id)
        expect((yield* read(b, user.id)).statements).toBe(0)
        yield* users(a).update(user.id, { revokeTokensIssuedBefore: 1_800_000_000 })
        const revocationSeenMs = yield* seenWithin(
          b,
          user.id,
          (found) => Option.getOrUndefined(found)?.tokensValidAfter === 1_800_000_000
        )
        expect(revocationSeenMs).toBeLessThanOrEqual(notificationBoundMs)

        // A user's link goes (ON DELETE SET NULL) with the record it names.
        const athleteId = Option.getOrThrow((yield* read(b, user.id)).credentials).user.athleteId!
        expect((yield* read(b, user.id)).statements).toBe(0)
        yield* Context.get(a, AthleteRepository).delete(athleteId)
        const unlinkedSeenMs = yield* seenWithin(
          b,
          user.id,
          (found) => Option.getOrUndefined(found)?.user.athleteId === null
        )
        expect(unlinkedSeenMs).toBeLessThanOrEqual(notificationBoundMs)

        expect((yield* read(b, user.id)).statements).toBe(0)
        yield* users(a).delete(user.id)
        const deleteSeenMs = yield* seenWithin(b, user.id, Option.isNone)
        expect(deleteSeenMs).toBeLessThanOrEqual(notificationBoundMs)
        yield* Effect.logInfo(
          `[credentials] seen on B after: role ${roleSeenMs.toFixed(1)} ms, revocation ${
            revocationSeenMs.toFixed(1)
          } ms, ` +
            `unlink ${unlinkedSeenMs.toFixed(1)} ms, delete ${deleteSeenMs.toFixed(1)} ms`
        )
      }))

    it.effect("while B's LISTEN is down, B reads credentials from the database every time; its cache comes back after", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        yield* cacheOn(b)
        const user = yield* users(a).create(newUser("cut-off-b", "COACH"))
        yield* read(b, user.id)
        expect((yield* read(b, user.id)).statements).toBe(0)

        expect(yield* on(a)(cutListenOfB)).toEqual([{ terminated: true }])
        const cacheB = Context.get(b, CredentialsCache)
        const cutAt = performance.now()
        while (yield* cacheB.active) {
          expect(performance.now() - cutAt, "the cache turned off").toBeLessThan(1_000)
          yield* Effect.sleep("1 millis")
        }

        // B tries LISTEN again 100 ms after the cut at the earliest: these reads fit in that
        // window, and a change made meanwhile through A (whose notification B cannot hear) is
        // seen by B's very next read. Only reads begun while the cache is off are judged.
        yield* users(a).update(user.id, { role: "ATHLETE", link: "create" })
        let judged = 0
        for (let i = 0; i < 3 && !(yield* cacheB.active); i++) {
          const { credentials, statements } = yield* read(b, user.id)
          expect(roleOf(credentials)).toBe("ATHLETE")
          expect(statements, "read while the cache is off").toBe(1)
          judged++
        }
        expect(judged).toBeGreaterThanOrEqual(1)

        yield* cacheOn(b)
        const back = yield* on(a)(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql`SELECT 1 FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = ${instanceB} AND query LIKE 'LISTEN%'`
        }))
        expect(back).toHaveLength(1)
        expect((yield* read(b, user.id)).statements).toBe(1)
        expect((yield* read(b, user.id)).statements).toBe(0)

        // And it hears A again.
        yield* users(a).update(user.id, { role: "COACH", link: "create" })
        expect(yield* seenWithin(b, user.id, (found) => roleOf(found) === "COACH")).toBeLessThanOrEqual(
          notificationBoundMs
        )
      }))
  })
})
