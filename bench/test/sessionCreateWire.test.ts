import { type AthleteId, AuditActor, type LocalDateTime, SessionCreate, SessionRepository } from "@club/core"
import { migrated, PostgresServer, RepositoriesLive } from "@club/postgres-adapter"
import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startStatementCounter, type StatementCounter } from "../src/queries/StatementCounter.ts"

/**
 * What a session create sends on the wire (decision 0317), counted by the queries phase's proxy:
 * with no supplied id, no activities and no seed booking, one statement and no BEGIN or COMMIT
 * around it, its event and webhook deliveries in it; with activities, a transaction.
 */

const database = await temporaryTestDatabase({ prefix: "club_wire" })

describe.skipIf(database === undefined)("A session create on the wire", () => {
  let counter: StatementCounter
  let run: <A, E>(effect: Effect.Effect<A, E, SessionRepository | SqlClient.SqlClient>) => Promise<A>
  let dispose: () => Promise<void>

  beforeAll(async () => {
    counter = await startStatementCounter(database!.url)
    const layer = RepositoriesLive.pipe(
      Layer.provideMerge(migrated(PostgresServer(Redacted.make(counter.url(database!.url)), { maxConnections: 2 })))
    )
    const runtime = ManagedRuntime.make(layer)
    run = (effect) =>
      runtime.runPromise(
        Effect.provideService(effect, AuditActor, { userId: 3, role: "COACH", requestId: "wire" })
      )
    dispose = () => runtime.dispose()
  })

  afterAll(async () => {
    await dispose?.()
    await counter?.close()
    await database?.drop()
  })

  /** What the create sent: the credentials cache's listener probes its LISTEN on a connection of its own meanwhile. */
  const sentByTheCreate = () => counter.statements().filter((text) => !text.startsWith("SELECT pg_notify("))

  const input = (fields: Partial<ConstructorParameters<typeof SessionCreate>[0]>) =>
    new SessionCreate({
      id: null,
      name: "Wire",
      isRecurrent: false,
      creneau: "2031-03-04T18:30:00" as LocalDateTime,
      duree: 60,
      groupe: "G",
      coachId: null,
      athleteIds: [],
      activiteIds: [],
      ...fields
    })

  it("without activities: one statement, the session with its athletes, event and deliveries", async () => {
    const [athlete] = await run(Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) => sql<{ id: number }>`INSERT INTO athletes (name) VALUES ('wired') RETURNING id::float8 AS id`
    ))
    await run(Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) => sql`INSERT INTO webhooks (url, secret) VALUES ('http://one.test/hook', 'a secret of sixteen')`
    ))
    counter.reset()
    const session = await run(
      Effect.flatMap(
        Effect.service(SessionRepository),
        (s) => s.create(input({ athleteIds: [athlete!.id as AthleteId] }))
      )
    )
    const sent = sentByTheCreate()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatch(/^WITH written AS \(INSERT INTO "sessions"/u)
    expect(sent[0]).toContain("INSERT INTO attendance_events")
    expect(sent[0]).toContain("INSERT INTO webhook_deliveries")

    const [kept] = await run(Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) =>
        sql<{ athletes: number; events: number; deliveries: number; audited: number }>`SELECT
          (SELECT count(*)::int FROM session_athletes WHERE session_id = ${session.id}) AS athletes,
          (SELECT count(*)::int FROM attendance_events WHERE session_id = ${session.id}
            AND type = 'sessionCreated') AS events,
          (SELECT count(*)::int FROM webhook_deliveries WHERE session_id = ${session.id}) AS deliveries,
          (SELECT count(*)::int FROM audit_entries WHERE request_id = 'wire' AND actor_user_id = 3) AS audited`
    ))
    expect(kept).toEqual({ athletes: 1, events: 1, deliveries: 1, audited: 2 })
  })

  it("with activities: BEGIN, the one statement, COMMIT (the count of activities moved decides)", async () => {
    const [activity] = await run(Effect.flatMap(
      Effect.service(SqlClient.SqlClient),
      (sql) => sql<{ id: number }>`INSERT INTO activities (name) VALUES ('moved') RETURNING id::float8 AS id`
    ))
    counter.reset()
    await run(Effect.flatMap(
      Effect.service(SessionRepository),
      (s) => s.create(input({ activiteIds: [activity!.id as never] }))
    ))
    const sent = sentByTheCreate()
    expect(sent).toHaveLength(3)
    expect(sent[0]).toMatch(/^BEGIN/u)
    expect(sent[2]).toMatch(/^COMMIT/u)
  })
})
