import { temporaryTestDatabase, type TemporaryDatabase } from "@club/postgres-adapter/testing"
import { type ServerProcess, spawnServer, waitUntilLive } from "@club/test-support"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { send } from "../rest/support/http.ts"
import { adminName, adminPassword, jwtSecret, postgresAnswers } from "./support/Deployment.ts"
import { login } from "./support/principals.ts"
import { openSql, type Sql } from "./support/Sql.ts"

/**
 * A write PostgreSQL rolls back for its timing (a deadlock it broke, `40P01`; a serialization
 * failure, `40001`) kept nothing, so the server does it again (docs/RELIABILITY.md) instead of
 * answering 500. No deadlock between the service's own writes is known, so the database is made to
 * refuse: a trigger rolls back the first attempts of a table's writes, counting them on a sequence
 * (which a rollback does not undo). The embedded database's side is `transactionOutcome.test.ts`.
 */
describe.skipIf(!postgresAnswers)("A write PostgreSQL rolled back for its timing, over the wire", () => {
  let temporary: TemporaryDatabase
  let sql: Sql
  let server: ServerProcess
  let baseUrl: string
  let coachToken: string

  beforeAll(async () => {
    temporary = (await temporaryTestDatabase())!
    sql = await openSql(temporary.urlVia(temporary.server.host, temporary.server.port))
    server = await spawnServer({
      ADMIN_NAME: adminName,
      ADMIN_PASSWORD: adminPassword,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: "error",
      DATABASE_URL: temporary.urlVia(temporary.server.host, temporary.server.port)
    })
    await waitUntilLive(server)
    baseUrl = `http://127.0.0.1:${server.port}`
    const adminToken = await login(baseUrl, adminName, adminPassword)
    const coach = await send(baseUrl, "POST", "/coaches/create", { token: adminToken, json: { name: "Timing coach" } })
    await send(baseUrl, "POST", "/users/create", {
      token: adminToken,
      json: {
        name: "timingcoach",
        role: "COACH",
        password: "timing-coach-password-0",
        coachId: (coach.body as { id: number }).id
      }
    })
    coachToken = await login(baseUrl, "timingcoach", "timing-coach-password-0")
    await sql.query(
      `CREATE TABLE timing_refusals (tablename text PRIMARY KEY, refused int NOT NULL, code text NOT NULL)`
    )
    await sql.query(`CREATE SEQUENCE timing_attempts`)
    await sql.query(`CREATE FUNCTION refuse_for_timing() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE refusal timing_refusals;
      BEGIN
        SELECT * INTO refusal FROM timing_refusals WHERE tablename = TG_TABLE_NAME;
        IF FOUND AND nextval('timing_attempts') <= refusal.refused THEN
          RAISE EXCEPTION 'rolled back for its timing' USING ERRCODE = refusal.code;
        END IF;
        RETURN NULL;
      END $$`)
  }, 180_000)

  afterAll(async () => {
    await server?.stop()
    await sql?.close()
    await temporary?.drop()
  })

  /** The next writes of `table` are refused `refused` times with `code`, then pass. */
  const refusing = async (table: string, refused: number, code: string) => {
    await sql.query(`DELETE FROM timing_refusals`)
    await sql.query(`INSERT INTO timing_refusals VALUES ('${table}', ${refused}, '${code}')`)
    await sql.query(`ALTER SEQUENCE timing_attempts RESTART`)
    await sql.query(`CREATE OR REPLACE TRIGGER refuse_for_timing AFTER INSERT OR UPDATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_for_timing()`)
  }
  const attempts = async () =>
    (await sql.query<{ attempts: number }>(
      `SELECT CASE WHEN is_called THEN last_value ELSE 0 END::int AS attempts FROM timing_attempts`
    ))[0]!.attempts

  it("a session update refused twice for a deadlock answers 204, written once", async () => {
    const created = await send(baseUrl, "POST", "/session/create", {
      token: coachToken,
      json: { name: "Refused", isRecurrent: false, creneau: "2026-05-04T18:30:00", duree: 60, groupe: "A" }
    })
    expect(created.status).toBe(201)
    const id = (created.body as { id: number }).id
    await refusing("sessions", 2, "40P01")
    const updated = await send(baseUrl, "PUT", `/session/update/${id}`, { token: coachToken, json: { duree: 75 } })
    expect(updated.status).toBe(204)
    expect(await attempts()).toBe(3)
    expect(await sql.query(`SELECT duree::int AS duree FROM sessions WHERE id = ${id}`)).toEqual([{ duree: 75 }])
    const entries = await sql.query<{ changes: { duree: number } }>(
      `SELECT changes FROM audit_entries WHERE record_type = 'sessions' AND operation = 'update'
        AND record_ids -> 'id' = to_jsonb(${id}::bigint)`
    )
    expect(entries.map((entry) => entry.changes.duree)).toEqual([75])
    await sql.query(`DROP TRIGGER refuse_for_timing ON sessions`)
  })

  it("a task created over Connect, refused once for a serialization failure, answers 200, kept once", async () => {
    await refusing("tasks", 1, "40001")
    const created = await send(baseUrl, "POST", "/todo.TodoService/CreateTask", {
      token: coachToken,
      json: { title: "refused once for its timing" }
    })
    expect(created.status).toBe(200)
    expect(await attempts()).toBe(2)
    expect(await sql.query(`SELECT title FROM tasks WHERE title = 'refused once for its timing'`)).toHaveLength(1)
    await sql.query(`DROP TRIGGER refuse_for_timing ON tasks`)
  })
})
