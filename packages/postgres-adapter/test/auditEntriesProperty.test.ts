import { expect } from "@effect/vitest"
import fc from "fast-check"
import { type Context, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { comparedAuditColumns, withAuditFunction0037Beside } from "./support/auditFunction0037Beside.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/** Text PostgreSQL stores (no NUL), short, of any script, empty included. */
const text = fc.string({ unit: "grapheme", maxLength: 6 }).filter((value) => !value.includes("\u0000"))

/** A row's change in an UPDATE: each column kept or given a value (perhaps the same), the key perhaps changed. */
const rowChange = fc.record({
  title: fc.option(text, { nil: undefined }),
  description: fc.option(text, { nil: undefined }),
  newKey: fc.boolean()
})

/** One statement on the tasks written so far (each picks rows by their place, modulo how many there are). */
const statement = fc.oneof(
  fc.record({
    kind: fc.constant("insert" as const),
    rows: fc.array(fc.tuple(text, text), { minLength: 0, maxLength: 5 })
  }),
  fc.record({
    kind: fc.constant("update" as const),
    rows: fc.array(fc.tuple(fc.nat(), rowChange), { minLength: 0, maxLength: 5 })
  }),
  fc.record({ kind: fc.constant("delete" as const), rows: fc.array(fc.nat(), { minLength: 0, maxLength: 3 }) }),
  fc.record({
    kind: fc.constant("users" as const),
    rows: fc.array(fc.tuple(fc.nat(), fc.option(text, { nil: undefined }), fc.boolean()), {
      minLength: 1,
      maxLength: 3
    })
  })
)

/**
 * The audit function's entries (migrations 0039, 0041 and 0043 replaced 0037's, each for less work)
 * are 0037's, column for column and in the same order, for any statement: inserts, deletes and
 * updates of any of the rows written so far, each row's columns changed or not, its key changed or
 * not, several rows in one statement, and updates of users, whose password hash is a secret. The
 * fixed cases are `auditTrail.test.ts`'s.
 */
onEachDatabase("The audit trail's entries, against 0037's function (fast-check)", (it) => {
  it.effect(
    "any statements on tasks and users leave the entries 0037's function leaves",
    () =>
      withAuditFunction0037Beside(() =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const context: Context.Context<SqlClient.SqlClient> = yield* Effect.context<SqlClient.SqlClient>()
          const run = Effect.runPromiseWith(context)
          const users = (yield* sql<{ id: string }>`INSERT INTO users (name, role, password_hash)
          SELECT 'property user ' || n, 'ADMIN', 'hash ' || n FROM generate_series(1, 3) n RETURNING id::text AS id`)
            .map((row) => row.id)
          const seed = Number(process.env["AUDIT_PROPERTY_SEED"] ?? Date.now() ^ (Math.random() * 0x7fffffff))
          let renames = 0
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(fc.array(statement, { minLength: 1, maxLength: 6 }), async (statements) => {
                const [mark] = await run(
                  sql<{ last: string }>`SELECT COALESCE(max(id), 0)::text AS last FROM audit_entries`
                )
                await run(sql`TRUNCATE audit_entries_0037`)
                let tasks: Array<string> = []
                // Each statement's rows as one JSON parameter, nulls included.
                const recordsOf = (rows: ReadonlyArray<object>) => JSON.stringify(rows)
                for (const step of statements) {
                  if (step.kind === "insert") {
                    const rows = step.rows.map(([title, description]) => ({ title, description }))
                    const inserted = await run(sql<{ id: string }>`INSERT INTO tasks (title, description)
                    SELECT v.title, v.description
                    FROM ROWS FROM (jsonb_to_recordset(${recordsOf(rows)}::jsonb) AS (title text, description text))
                      WITH ORDINALITY AS v(title, description, n)
                    ORDER BY v.n RETURNING id::text AS id`)
                    tasks = [...tasks, ...inserted.map((row) => row.id)]
                  } else if (step.kind === "update" && tasks.length > 0) {
                    // One change per row: the first of several for the same row is taken.
                    const changes = new Map<string, (typeof step.rows)[number][1]>()
                    for (const [at, change] of step.rows) {
                      const id = tasks[at % tasks.length]!
                      if (!changes.has(id)) changes.set(id, change)
                    }
                    const rows = [...changes].map(([id, change]) => ({
                      old_id: id,
                      title: change.title ?? null,
                      description: change.description ?? null,
                      new_id: change.newKey ? crypto.randomUUID() : id
                    }))
                    await run(sql`UPDATE tasks SET title = COALESCE(v.title, tasks.title),
                      description = COALESCE(v.description, tasks.description), id = v.new_id
                    FROM jsonb_to_recordset(${recordsOf(rows)}::jsonb)
                      AS v(old_id uuid, title text, description text, new_id uuid)
                    WHERE tasks.id = v.old_id`)
                    const moved = new Map(rows.map((row) => [row.old_id, row.new_id]))
                    tasks = tasks.map((id) => moved.get(id) ?? id)
                  } else if (step.kind === "delete" && tasks.length > 0) {
                    const gone = new Set(step.rows.map((at) => tasks[at % tasks.length]!))
                    await run(sql`DELETE FROM tasks WHERE id = ANY(${[...gone]}::uuid[])`)
                    tasks = tasks.filter((id) => !gone.has(id))
                  } else if (step.kind === "users") {
                    const changes = new Map(
                      step.rows.map(([at, email, renamed]) => [users[at % users.length]!, { email, renamed }])
                    )
                    const rows = [...changes].map(([id, change]) => {
                      const renaming = change.renamed ? renames++ : null
                      return {
                        id,
                        email: change.email === undefined ? null : `${change.email}@club.test`,
                        name: renaming === null ? null : `property user renamed ${renaming}`,
                        hash: renaming === null ? null : `another hash ${renaming}`
                      }
                    })
                    await run(
                      sql`UPDATE users SET email = COALESCE(v.email, users.email), name = COALESCE(v.name, users.name),
                      password_hash = COALESCE(v.hash, users.password_hash)
                    FROM jsonb_to_recordset(${recordsOf(rows)}::jsonb) AS v(id bigint, email text, name text, hash text)
                    WHERE users.id = v.id`
                    )
                  }
                }
                await run(sql`DELETE FROM tasks WHERE id = ANY(${tasks}::uuid[])`)
                const columns = sql.literal(comparedAuditColumns)
                const current = await run(
                  sql`SELECT ${columns} FROM audit_entries WHERE id > ${mark!.last}::bigint ORDER BY id`
                )
                const reference = await run(sql`SELECT ${columns} FROM audit_entries_0037 ORDER BY id`)
                expect(current).toEqual(reference)
              }),
              { seed, numRuns: Number(process.env["AUDIT_PROPERTY_RUNS"] ?? 25) }
            ).catch((error: unknown) => {
              throw new Error(
                `AUDIT_PROPERTY_SEED=${seed}: ${String(error)} ${String((error as { cause?: unknown }).cause)}`
              )
            })
          )
        })
      ),
    { timeout: 300_000 }
  )
})
