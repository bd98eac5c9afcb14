import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Moving the app's data from one database to another of the same schema (the embedded database to
 * a PostgreSQL server): a plain SQL file of the rows, written by `exportData` and restored by
 * `importData` (or by `psql --single-transaction -f`) into a database the same migrations made.
 * The schema is the migrations', so the file holds rows only: tables in the order of their foreign
 * keys, then every sequence where it stood. Each statement is one line, so the importer needs no
 * SQL parser (docs/DECISIONS.md, "Moving off the embedded database").
 */

/** The migrator's own table: the importing database's migrations fill it. */
const migrationsTable = "effect_sql_migrations"
/** The audit trail's floor, which migration 0032 writes: the export raises it to the source's, never lowers it. */
const auditSettingsTable = "audit_settings"
const rowsPerStatement = 500

const ident = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

interface ForeignKey {
  readonly table: string
  readonly references: string
  readonly columns: ReadonlyArray<string>
}

/** Tables so that each comes after those its foreign keys name; a table's references to itself are set after its rows. */
const inDependencyOrder = (tables: ReadonlyArray<string>, keys: ReadonlyArray<ForeignKey>): Array<string> => {
  const ordered: Array<string> = []
  const visiting = new Set<string>()
  const visit = (table: string) => {
    if (ordered.includes(table)) return
    if (visiting.has(table)) throw new Error(`The foreign keys of ${table} form a cycle: no order restores them`)
    visiting.add(table)
    for (const key of keys) if (key.table === table && key.references !== table) visit(key.references)
    visiting.delete(table)
    ordered.push(table)
  }
  for (const table of [...tables].sort()) visit(table)
  return ordered
}

/** The export as lines of SQL (each line one statement or a comment), handed to `write` in order. */
export const exportData = (write: (lines: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tables = (yield* sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_catalog.pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
        AND c.relname NOT IN (${migrationsTable}, ${auditSettingsTable})
    `).map((row) => row.name)
    const auditFloor = (yield* sql<{ days: number }>`SELECT minimum_days AS days FROM audit_settings`)[0]?.days
    const keys = yield* sql<{ table: string; references: string; columns: Array<string> }>`
      SELECT t.relname AS "table", r.relname AS "references",
        ARRAY(SELECT a.attname::text FROM unnest(k.conkey) AS n JOIN pg_catalog.pg_attribute a
          ON a.attrelid = k.conrelid AND a.attnum = n) AS columns
      FROM pg_catalog.pg_constraint k
      JOIN pg_catalog.pg_class t ON t.oid = k.conrelid
      JOIN pg_catalog.pg_class r ON r.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace
    `
    const migration = (yield* sql<{ migration: number }>`
      SELECT coalesce(max(migration_id), 0) AS migration FROM public.effect_sql_migrations
    `)[0]?.migration ?? 0
    const ordered = inDependencyOrder(tables, keys)

    yield* write(
      [
        `-- Club Training Service data: the rows of every table, for a database migrated to migration ${migration}.`,
        "-- Restore with `pnpm db:import <file>` (DATABASE_URL), or psql --single-transaction -v ON_ERROR_STOP=1 -f <file>",
        "-- on a database the server (of the same version) has migrated and that holds no data yet.",
        "SET standard_conforming_strings = on;",
        "SET client_encoding = 'UTF8';",
        `DO $check$ BEGIN IF (SELECT coalesce(max(migration_id), 0) FROM public.${migrationsTable}) <> ${migration} THEN RAISE EXCEPTION 'this export needs a database migrated to migration ${migration}: start the same version of the server on it once, or use pnpm db:import'; END IF; END $check$;`,
        `DO $check$ DECLARE t text; found boolean; BEGIN FOREACH t IN ARRAY ARRAY[${
          ordered.map(literal).join(", ")
        }]::text[] LOOP EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I)', t) INTO found; IF found THEN RAISE EXCEPTION 'table % already holds rows: restore into a new database', t; END IF; END LOOP; END $check$;`,
        // The rows come with their own audit entries: the audit trigger writes none while they are restored.
        "SELECT pg_catalog.set_config('club.audit_restore', 'on', true);",
        ...(auditFloor === undefined ? [] : [
          `UPDATE public.${auditSettingsTable} SET minimum_days = ${auditFloor} WHERE minimum_days < ${auditFloor};`
        ]),
        ""
      ].join("\n")
    )

    for (const table of ordered) {
      const columns = (yield* sql<{ name: string }>`
        SELECT a.attname AS name FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = ${`public.${ident(table)}`}::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attgenerated = ''
        ORDER BY a.attnum
      `).map((row) => row.name)
      const primaryKey = (yield* sql<{ name: string }>`
        SELECT a.attname AS name FROM pg_catalog.pg_index i
        JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indrelid = ${`public.${ident(table)}`}::regclass AND i.indisprimary
      `).map((row) => row.name)
      const selfReferences = keys.filter((key) => key.table === table && key.references === table).flatMap((key) =>
        key.columns
      )
      if (selfReferences.length > 0 && primaryKey.length === 0) {
        return yield* Effect.die(new Error(`${table} refers to itself and has no primary key: it cannot be restored`))
      }
      const rows = (yield* sql.unsafe<{ row: string }>(
        `SELECT to_json(t)::text AS row FROM public.${ident(table)} AS t ORDER BY ${
          primaryKey.length > 0 ? primaryKey.map(ident).join(", ") : "1"
        }`
      )).map((row) => row.row)
      if (rows.length === 0) continue
      const target = `public.${ident(table)}`
      const list = columns.map(ident).join(", ")
      // A reference to a row of the same table may point forward: those columns are set once every row is in.
      const selected = columns.map((column) => selfReferences.includes(column) ? "NULL" : ident(column)).join(", ")
      const lines: Array<string> = [`-- ${table}: ${rows.length} rows`]
      for (let start = 0; start < rows.length; start += rowsPerStatement) {
        const json = literal(`[${rows.slice(start, start + rowsPerStatement).join(",")}]`)
        lines.push(
          `INSERT INTO ${target} (${list}) OVERRIDING SYSTEM VALUE SELECT ${selected} FROM pg_catalog.json_populate_recordset(NULL::${target}, ${json});`
        )
        if (selfReferences.length > 0) {
          lines.push(
            `UPDATE ${target} AS t SET ${
              selfReferences.map((column) => `${ident(column)} = r.${ident(column)}`).join(", ")
            } FROM pg_catalog.json_populate_recordset(NULL::${target}, ${json}) AS r WHERE ${
              primaryKey.map((column) => `t.${ident(column)} = r.${ident(column)}`).join(" AND ")
            };`
          )
        }
      }
      yield* write(`${lines.join("\n")}\n`)
    }

    const sequences = yield* sql<{ name: string; value: string | null }>`
      SELECT sequencename AS name, last_value::text AS value FROM pg_catalog.pg_sequences
      WHERE schemaname = 'public' ORDER BY sequencename
    `
    yield* write(
      [
        "-- sequences",
        ...sequences.flatMap(({ name, value }) =>
          value === null ? [] : [`SELECT pg_catalog.setval(${literal(`public.${ident(name)}`)}, ${value}, true);`]
        ),
        ""
      ].join("\n")
    )
  }).pipe(Effect.withSpan("Database.exportData"))

/** Runs an export's statements, one per line, in one transaction: all of it is restored, or nothing. */
export const importData = (text: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const statements = text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("--"))
    yield* sql.withTransaction(Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
    return statements.length
  }).pipe(Effect.withSpan("Database.importData"))
