import { migrated, PostgresServer } from "@club/postgres-adapter"
import { createTemporaryDatabase, serverAnswers, testServerUrl } from "@club/postgres-adapter/testing"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readAuditTrail, setAuditTrail } from "../src/database/auditTrailCopy.ts"
import { runSql } from "../src/database/runSql.ts"

/**
 * BENCH_COMPARED_AUDIT=project: the project's audit trail, read from a database the project
 * migrated, set on a database of an older schema, writes there the entries the project's own
 * trail writes for the same statements.
 */
const url = testServerUrl()
const reachable = url !== undefined && await Effect.runPromise(serverAnswers(url))

// An older build's tables: fewer of them, and fewer columns than the project's.
const olderSchema = [
  `CREATE TABLE users (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL,
    role text NOT NULL, password_hash text NOT NULL)`,
  `CREATE TABLE athletes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL,
    user_id bigint)`,
  `CREATE TABLE tasks (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), title text NOT NULL,
    description text NOT NULL DEFAULT '')`
]

// The same statements on either database.
const writes = [
  `INSERT INTO users (name, role, password_hash) VALUES ('ann', 'ADMIN', 'secret-1'), ('bob', 'COACH', 'secret-2')`,
  `UPDATE users SET password_hash = 'secret-3' WHERE name = 'ann'`,
  `UPDATE users SET name = 'bea' WHERE name = 'bob'`,
  `UPDATE users SET name = name`,
  `INSERT INTO tasks (id, title) VALUES ('00000000-0000-4000-8000-000000000001', 'one')`,
  `DELETE FROM tasks`
]

/** The entries of the rows `writes` wrote (a migration writes none of these tables' rows). */
const entriesOf = (sql: SqlClient.SqlClient) =>
  sql<Record<string, unknown>>`SELECT record_type, operation, record_ids, subject_user_id, subject_athlete_id,
      changes ->> 'name' AS name, changes ->> 'password_hash' AS password_hash, changes ->> 'title' AS title,
      actor_user_id
    FROM audit_entries WHERE record_type IN ('users', 'athletes', 'tasks') ORDER BY id`

const indexesOf = (sql: SqlClient.SqlClient) =>
  sql<{ definition: string }>`SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index
    WHERE indrelid = 'audit_entries'::regclass ORDER BY 1`

describe.skipIf(!reachable)("the project's audit trail set on an older build's database", () => {
  const databases: Array<{ url: string; drop: () => Promise<void> }> = []
  let project = ""
  let older = ""

  beforeAll(async () => {
    for (const purpose of ["project", "older"]) {
      databases.push(await createTemporaryDatabase(url!, { prefix: `club_bench_audit_copy_${purpose}` }))
    }
    project = databases[0]!.url
    older = databases[1]!.url
    await Effect.runPromise(
      Effect.provide(Effect.asVoid(SqlClient.SqlClient), migrated(PostgresServer(Redacted.make(project)))).pipe(
        Effect.scoped
      )
    )
    await runSql(older, (sql) => Effect.forEach(olderSchema, (statement) => sql.unsafe(statement)))
  })

  afterAll(async () => {
    for (const database of databases) await database.drop()
  })

  it("sets the table, its indexes and the triggers of the tables the database has, and names the others", async () => {
    const trail = await runSql(project, readAuditTrail)
    const set = await runSql(older, setAuditTrail(trail))
    expect(set.audited).toEqual(["athletes", "tasks", "users"])
    expect(set.absent).toContain("sessions")
    expect(set.absent).not.toContain("users")
    expect(await runSql(older, indexesOf)).toEqual(await runSql(project, indexesOf))
  })

  it("writes there the entries the project's trail writes for the same statements", async () => {
    const run = (database: string) =>
      runSql(database, (sql) =>
        Effect.gen(function*() {
          for (const statement of writes) yield* sql.unsafe(statement)
          return yield* entriesOf(sql)
        }))
    const [fromProject, fromOlder] = [await run(project), await run(older)]
    // Users' ids are the same on both (identity from 1): the project's migrations write no user.
    expect(fromOlder).toEqual(fromProject)
    expect(fromOlder.map((entry) => [entry["record_type"], entry["operation"]])).toEqual([
      ["users", "insert"],
      ["users", "insert"],
      ["users", "update"],
      ["users", "update"],
      ["tasks", "insert"],
      ["tasks", "delete"]
    ])
    // A secret is named, never copied.
    expect(fromOlder.map((entry) => entry["password_hash"])).toEqual([
      "(withheld)",
      "(withheld)",
      "(withheld)",
      null,
      null,
      null
    ])
  })
})
