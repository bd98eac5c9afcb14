import { PgClient } from "@effect/sql-pg"
import { Deferred, Effect, Fiber, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { expect, it } from "vitest"
import { openSql } from "../reliability/support/Sql.ts"
import { h2c, sleep } from "../support/requests.ts"
import { eventually } from "@club/test-support"
import { type Club, onEveryDatabase, unique } from "./support/club.ts"
import { expectJson, expectProblem, expectText } from "@club/test-support/expectations"
import type { Reply } from "./support/http.ts"
import { createSession, type SessionDto } from "./support/fixtures.ts"

const replayed = (reply: Reply) => reply.headers.get("idempotent-replayed")

const sessionsNamed = async (club: Club, name: string) =>
  ((await club.coach.get("/session/all")).body as Array<SessionDto>).filter((session) => session.name === name)

const withKey = (key: string) => ({ headers: { "idempotency-key": key } })

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
  it("a session create sent twice with one key creates one session, and answers the same body twice, the second marked replayed", async () => {
    const name = unique("Once")
    const key = randomUUID()
    const first = await club().coach.post("/session/create", { name, isRecurrent: true, duree: 60 }, withKey(key))
    expect(first.status).toBe(201)
    expect(replayed(first)).toBeNull()
    const second = await club().coach.post("/session/create", { name, isRecurrent: true, duree: 60 }, withKey(key))
    expectJson(second, 201, first.body)
    expect(second.text).toBe(first.text)
    expect(replayed(second)).toBe("true")
    // Each answer has its own request id; the rest is the first answer's.
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"))
    expect(await sessionsNamed(club(), name)).toHaveLength(1)
  })

  it("the same key with another body, path or method answers 422 problem+json and writes nothing", async () => {
    const name = unique("Kept")
    const key = randomUUID()
    expect((await club().coach.post("/session/create", { name }, withKey(key))).status).toBe(201)
    const changed = await club().coach.post("/session/create", { name: `${name}-changed` }, withKey(key))
    expectProblem(changed, 422, { detail: /different request/u })
    expect(changed.body).toMatchObject({
      title: "Unprocessable Content",
      requestId: changed.headers.get("x-request-id")
    })
    const elsewhere = await club().coach.post("/activite/create", { name, sessionId: 1 }, withKey(key))
    expectProblem(elsewhere, 422)
    expect(await sessionsNamed(club(), `${name}-changed`)).toHaveLength(0)
    expect(await sessionsNamed(club(), name)).toHaveLength(1)
  })

  it("two requests with one key at once: one is served; the other gets its answer replayed, or 409 with Retry-After while it runs", async () => {
    for (let round = 0; round < 5; round++) {
      const name = unique("Race")
      const key = randomUUID()
      const replies = await Promise.all([0, 1].map(() => club().coach.post("/session/create", { name }, withKey(key))))
      const fresh = replies.filter((reply) => reply.status === 201 && replayed(reply) === null)
      expect(fresh).toHaveLength(1)
      for (const other of replies.filter((reply) => reply !== fresh[0])) {
        if (other.status === 409) {
          expectProblem(other, 409, { detail: /still being served/u })
          expect(other.headers.get("retry-after")).toBe("1")
        } else {
          expect(other.status).toBe(201)
          expect(replayed(other)).toBe("true")
          expect(other.text).toBe(fresh[0]!.text)
        }
      }
      expect(await sessionsNamed(club(), name)).toHaveLength(1)
    }
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
        // The first holds the key, and waits for the table.
        const sql = await openSql(club().databaseUrl!)
        try {
          expect(
            await eventually(
              async () => (await sql.query(`SELECT 1 FROM idempotency_keys WHERE key = '${key}'`)).length === 1,
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
        const other = await club().coach.post("/session/create", { name: `${name}-other` }, withKey(key))
        expectProblem(other, 422)
      } finally {
        await unlock()
      }
      const served = await first!
      expect(served.status).toBe(201)
      const repeat = await club().coach.post("/session/create", { name }, withKey(key))
      expect(repeat.text).toBe(served.text)
      expect(replayed(repeat)).toBe("true")
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

  it("a key is the caller's: another user's same key is a key of its own", async () => {
    const key = randomUUID()
    const session = await club().coach.post("/session/create", { name: unique("Mine") }, withKey(key))
    expect(session.status).toBe(201)
    const athlete = await club().admin.post("/athletes/create", {
      name: unique("Theirs"),
      categorie: "Senior",
      niveau: "A"
    }, withKey(key))
    expect(athlete.status).toBe(201)
    expect(replayed(athlete)).toBeNull()
  })

  it("without a key nothing changes: the same create twice makes two sessions", async () => {
    const name = unique("Twice")
    const replies = [
      await club().coach.post("/session/create", { name }),
      await club().coach.post("/session/create", { name })
    ]
    expect(replies.map((reply) => [reply.status, replayed(reply)])).toEqual([[201, null], [201, null]])
    expect(await sessionsNamed(club(), name)).toHaveLength(2)
  })

  it("a refusal (4xx) is replayed as it was; a server failure (5xx) is not kept, and the request is served again", async () => {
    const refusedKey = randomUUID()
    const body = { name: unique("Refused"), athleteIds: [987_654_321] }
    const refused = await club().coach.post("/session/create", body, withKey(refusedKey))
    expectText(refused, 400, /athleteIds/u)
    const repeat = await club().coach.post("/session/create", body, withKey(refusedKey))
    expectText(repeat, 400, refused.text)
    expect(replayed(repeat)).toBe("true")

    const failedKey = randomUUID()
    const activity = { name: unique("Orphan"), sessionId: 987_654_321 }
    const failed = await club().coach.post("/activite/create", activity, withKey(failedKey))
    expectText(failed, 500, /^Error: /u)
    const retried = await club().coach.post("/activite/create", activity, withKey(failedKey))
    expectText(retried, 500, failed.text)
    expect(replayed(retried)).toBeNull()
  })

  it("a delete sent twice with one key answers its success twice, not a 404; an activity create's Location is replayed too", async () => {
    const session = await createSession(club(), { name: unique("Doomed") })
    const key = randomUUID()
    const first = await club().coach.delete(`/session/delete/${session.id}`, withKey(key))
    expect(first.status).toBe(200)
    const second = await club().coach.delete(`/session/delete/${session.id}`, withKey(key))
    expectText(second, 200, first.text)
    expect(replayed(second)).toBe("true")
    expect((await club().coach.delete(`/session/delete/${session.id}`)).status).toBe(404)

    const target = await createSession(club())
    const activityKey = randomUUID()
    const activity = { name: unique("Located"), sessionId: target.id }
    const created = await club().coach.post("/activite/create", activity, withKey(activityKey))
    const again = await club().coach.post("/activite/create", activity, withKey(activityKey))
    expectText(again, 201, "Activity created")
    expect(replayed(again)).toBe("true")
    expect(again.headers.get("location")).toBe(created.headers.get("location"))
    expect((await club().coach.get(`/session/${target.id}`)).body).toMatchObject({
      activiteIds: [Number(created.headers.get("location")!.split("/").pop())]
    })
  })

  it("a key that is not 1 to 255 visible ASCII characters is refused, 400 problem naming the header, and nothing is written", async () => {
    for (const key of ["k".repeat(256), "has space", "tab\there"]) {
      const name = unique("BadKey")
      const reply = await club().coach.post("/session/create", { name }, withKey(key))
      expectProblem(reply, 400, { detail: "Idempotency-Key: Expected 1 to 255 visible ASCII characters" })
      expect(await sessionsNamed(club(), name)).toHaveLength(0)
    }
    expect((await club().coach.post("/session/create", { name: unique("LongKey") }, withKey("k".repeat(255)))).status)
      .toBe(201)
  })

  it("a login is not covered: each is answered afresh", async () => {
    const key = randomUUID()
    const login = { name: "coach", password: "coach-password-0" }
    const replies = [
      await club().anonymous.post("/auth/login", login, withKey(key)),
      await club().anonymous.post("/auth/login", login, withKey(key))
    ]
    expect(replies.map((reply) => [reply.status, replayed(reply)])).toEqual([[200, null], [200, null]])
  })
})

await onEveryDatabase("Idempotency keys expire (IDEMPOTENCY_KEY_RETENTION_SECONDS=2)", (club) => {
  it("within the retention a repeat is replayed; after it the same key is a new key, and the request is served again", async () => {
    const name = unique("Expiring")
    const key = randomUUID()
    const first = await club().coach.post("/session/create", { name }, withKey(key))
    expect(first.status).toBe(201)
    const repeat = await club().coach.post("/session/create", { name }, withKey(key))
    expect(replayed(repeat)).toBe("true")
    await sleep(2_200)
    const again = await club().coach.post("/session/create", { name }, withKey(key))
    expect(again.status).toBe(201)
    expect(replayed(again)).toBeNull()
    expect(again.text).not.toBe(first.text)
    await sleep(2_200)
    expect((await club().coach.post("/session/create", { name: `${name}-other` }, withKey(key))).status).toBe(201)
    expect(await sessionsNamed(club(), name)).toHaveLength(2)
  })
}, { env: { IDEMPOTENCY_KEY_RETENTION_SECONDS: "2" } })
