import { PgClient } from "@effect/sql-pg"
import { Deferred, Effect, Fiber, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { expect, it } from "vitest"
import { openSql } from "../reliability/support/Sql.ts"
import { h2c, sleep } from "../support/requests.ts"
import { eventually } from "@club/test-support"
import { idempotentWrites, replayed, sessionsNamed, unique, withKey } from "@club/test-support/rest"
import { onEveryDatabase } from "./support/club.ts"
import { expectProblem } from "@club/test-support/expectations"
import type { Reply } from "./support/http.ts"

/**
 * Holds an exclusive lock on `table` (reads still pass, writes wait) until the returned function is
 * called: a write that needs the table is kept running as long as the test wants.
 */
const lockTable = async (databaseUrl: string, table: string) => {
  const locked = Effect.runSync(Deferred.make<void>())
  const release = Effect.runSync(Deferred.make<void>())
  const holding = Effect.runFork(
    SqlClient.SqlClient.use((sql) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql.unsafe(`LOCK TABLE ${table} IN EXCLUSIVE MODE`)
        yield* Deferred.succeed(locked, undefined)
        yield* Deferred.await(release)
      }))
    ).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
  )
  await Effect.runPromise(Deferred.await(locked))
  return () =>
    Effect.runPromise(Deferred.succeed(release, undefined).pipe(Effect.andThen(Fiber.join(holding)), Effect.asVoid))
}

await onEveryDatabase("Idempotency-Key on REST writes", (club, database) => {
  idempotentWrites(club)

  // The request id is the listener's: only the server sets one on each answer.
  it("a replay and a refusal name the request they answer: their own X-Request-Id, the problem's requestId too", async () => {
    const name = unique("Named")
    const key = withKey()
    const first = await club().coach.post("/session/create", { name }, key)
    const second = await club().coach.post("/session/create", { name }, key)
    expect(replayed(second)).toBe("true")
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"))
    const changed = await club().coach.post("/session/create", { name: `${name}-changed` }, key)
    expectProblem(changed, 422, { detail: /different request/u })
    expect(changed.body).toMatchObject({
      title: "Unprocessable Content",
      requestId: changed.headers.get("x-request-id")
    })
  })

  it.skipIf(database.kind !== "server")(
    "a repeat while the first is still served gets 409 (retryable), then the first's answer",
    async () => {
      const name = unique("Held")
      const key = randomUUID()
      const unlock = await lockTable(club().databaseUrl!, "sessions")
      let first: Promise<Reply> | undefined
      try {
        first = club().coach.post("/session/create", { name }, withKey(key))
        // The first holds the key (its transaction's advisory lock: its row is not committed yet), and waits for the table.
        const sql = await openSql(club().databaseUrl!)
        try {
          expect(
            await eventually(
              async () =>
                (await sql.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted`)).length === 1,
              10_000,
              20
            )
          )
            .toBe(true)
        } finally {
          await sql.close()
        }
        const busy = await club().coach.post("/session/create", { name }, withKey(key))
        expectProblem(busy, 409)
        expect(busy.headers.get("retry-after")).toBe("1")
        // While the first runs its fingerprint is not visible yet: another body is told to retry too.
        const early = await club().coach.post("/session/create", { name: `${name}-other` }, withKey(key))
        expectProblem(early, 409)
      } finally {
        await unlock()
      }
      const served = await first!
      expect(served.status).toBe(201)
      const repeat = await club().coach.post("/session/create", { name }, withKey(key))
      expect(repeat.text).toBe(served.text)
      expect(replayed(repeat)).toBe("true")
      const other = await club().coach.post("/session/create", { name: `${name}-other` }, withKey(key))
      expectProblem(other, 422)
      expect(await sessionsNamed(club(), name)).toHaveLength(1)
    }
  )

  it("over HTTP/2 a body comes without content-length, and is compared all the same: another body under the key is 422", async () => {
    const key = randomUUID()
    const name = unique("H2")
    const post = (body: unknown) =>
      h2c(club().server.port, "/session/create", {
        method: "POST",
        headers: {
          authorization: `Bearer ${club().token.COACH}`,
          "content-type": "application/json",
          "idempotency-key": key
        },
        body: JSON.stringify(body)
      })
    expect((await post({ name })).status).toBe(201)
    const changed = await post({ name: `${name}-changed` })
    expect(changed.status, changed.body).toBe(422)
    expect(await sessionsNamed(club(), `${name}-changed`)).toHaveLength(0)
  })
})

await onEveryDatabase("Idempotency keys expire (IDEMPOTENCY_KEY_RETENTION_SECONDS=2)", (club) => {
  it("within the retention a repeat is replayed; after it the same key is a new key, and the request is served again", async () => {
    const name = unique("Expiring")
    const key = withKey()
    const first = await club().coach.post("/session/create", { name }, key)
    expect(first.status).toBe(201)
    const repeat = await club().coach.post("/session/create", { name }, key)
    expect(replayed(repeat)).toBe("true")
    await sleep(2_200)
    const again = await club().coach.post("/session/create", { name }, key)
    expect(again.status).toBe(201)
    expect(replayed(again)).toBeNull()
    expect(again.text).not.toBe(first.text)
    await sleep(2_200)
    expect((await club().coach.post("/session/create", { name: `${name}-other` }, key)).status).toBe(201)
    expect(await sessionsNamed(club(), name)).toHaveLength(2)
  })
}, { env: { IDEMPOTENCY_KEY_RETENTION_SECONDS: "2" } })
