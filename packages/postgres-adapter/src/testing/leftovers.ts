import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/** Where a text or an id of an erased person was still found: the table, and the row as text. */
export interface Leftover {
  readonly table: string
  readonly found: string
  readonly row: string
}

const Tables = Schema.Array(Schema.Struct({ table_name: Schema.String }))
const IdColumns = Schema.Array(Schema.Struct({ table_name: Schema.String, column_name: Schema.String }))
const Found = Schema.Array(Schema.Struct({ row: Schema.String }))

const quoted = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`

/**
 * The leftover search of issue 43: every table of the schema holding a text, jsonb or bytea column,
 * each row cast to text (bytea decoded too), searched for each of `texts` (case-insensitive);
 * then each id column named in `ids` (`athlete_id` → 12) and each jsonb key of the same name in
 * camel case (`"athleteId": 12`), searched for the id as a whole value.
 */
export const leftoversOf = (
  sql: SqlClient,
  texts: ReadonlyArray<string>,
  ids: Readonly<Record<string, number>>
) =>
  Effect.gen(function*() {
    const found: Array<Leftover> = []
    const tables = yield* sql`SELECT DISTINCT c.table_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', 'bytea', 'ARRAY', 'USER-DEFINED')
      ORDER BY c.table_name`.pipe(Effect.flatMap(Schema.decodeUnknownEffect(Tables)))
    const byteaColumns = yield* sql`SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type = 'bytea'`.pipe(
      Effect.flatMap(Schema.decodeUnknownEffect(IdColumns))
    )
    for (const { table_name: table } of tables) {
      const decoded = byteaColumns.filter((c) => c.table_name === table)
        .map((c) => ` || coalesce(convert_from(t.${quoted(c.column_name)}, 'UTF8'), '')`).join("")
      for (const text of texts) {
        const rows = yield* sql.unsafe(
          `SELECT t::text AS row FROM ${quoted(table)} t
          WHERE position(lower($1) IN lower(t::text${decoded})) > 0`,
          [text]
        ).pipe(Effect.flatMap(Schema.decodeUnknownEffect(Found)))
        for (const { row } of rows) found.push({ table, found: text, row })
      }
    }
    const idColumns = yield* sql`SELECT table_name, column_name FROM information_schema.columns c
      WHERE table_schema = current_schema()
        AND EXISTS (SELECT 1 FROM information_schema.tables t WHERE t.table_schema = c.table_schema
          AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')
        AND (column_name = ANY(${Object.keys(ids)}::text[]) OR data_type = 'jsonb')`.pipe(
      Effect.flatMap(Schema.decodeUnknownEffect(IdColumns))
    )
    for (const { table_name: table, column_name: column } of idColumns) {
      for (const [name, id] of Object.entries(ids)) {
        const key = name.replace(/_([a-z])/gu, (_, c: string) => c.toUpperCase())
        const rows = column === name
          ? yield* sql.unsafe(`SELECT t::text AS row FROM ${quoted(table)} t WHERE t.${quoted(column)} = $1`, [id])
          : column !== name && !Object.hasOwn(ids, column)
          ? yield* sql.unsafe(
            `SELECT t::text AS row FROM ${quoted(table)} t
              WHERE jsonb_typeof(t.${quoted(column)}) = 'object' AND (t.${quoted(column)}->>$1) = $2`,
            [key, String(id)]
          )
          : []
        for (const { row } of yield* Schema.decodeUnknownEffect(Found)(rows)) {
          found.push({ table, found: column === name ? `${column} = ${id}` : `"${key}": ${id}`, row })
        }
      }
    }
    return found
  })

/**
 * The tables that keep an erased person's ids, never a text that names them (docs/privacy.md
 * "Erasure"): what a leftover search after an erasure may find.
 */
export const keptAfterErasure: ReadonlySet<string> = new Set([
  "users",
  "athletes",
  "person_erasures",
  "memberships",
  "session_athletes",
  "session_replies",
  "attendance_marks",
  "attendance_mark_history",
  "attendance_events",
  "notices",
  "audit_entries"
])
