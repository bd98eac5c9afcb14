import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Every identity column stops at 2^53-1, the largest integer a JSON number holds exactly, so the
 * database itself never hands out an id that the service cannot read back (core's
 * `Limits.maxGeneratedId`; written out here because a migration never changes).
 *
 * Before this, a supplied id near 2^53 moved a sequence past it, after which every generated id
 * was unreadable: athlete, coach and admin creates committed such rows and answered 500, and their
 * listings failed from then on. A database in that state is repaired first (docs/DECISIONS.md):
 * - a sequence beyond 2^52 goes back to the largest id in use at or below 2^52, leaving at least
 *   2^52 ids to generate (ids in use above it, supplied under the old rule, are kept; generation
 *   steps over them if it ever gets there);
 * - a row whose id is beyond 2^53-1 gets the next free generated id, and the rows that refer to it
 *   follow; such rows were created by requests answered 500, so no client holds their old id.
 * Only then can MAXVALUE be set: PostgreSQL refuses one below the sequence's current value.
 */
const maxId = "9007199254740991"
/** Sequences beyond this go back below it: half the range, as much room as 2^31-1 supplied ids leave. */
const resetAbove = "4503599627370496"

const identityColumns = [
  ["coaches", "id"],
  ["athletes", "id"],
  ["admins", "id"],
  ["sessions", "id"],
  ["users", "id"],
  ["activities", "id"],
  ["tasks", "insertion_order"],
  ["login_failures", "id"]
] as const

/** The tables whose ids a create could supply, hence push past 2^53-1, and the columns that refer to them. */
const referencesTo = {
  coaches: [["sessions", "coach_id"], ["users", "coach_id"]],
  athletes: [["session_athletes", "athlete_id"], ["users", "athlete_id"]],
  admins: [["users", "admin_id"]],
  sessions: [["session_athletes", "session_id"], ["activities", "session_id"]]
} as const

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  for (const [table, column] of identityColumns) {
    yield* sql`SELECT setval(identity.seq, COALESCE(kept.id, 1), kept.id IS NOT NULL)
      FROM (SELECT pg_get_serial_sequence(${table}, ${column})::regclass AS seq) AS identity,
        LATERAL (SELECT max(${sql(column)}) AS id FROM ${sql(table)} WHERE ${
      sql(column)
    } <= ${resetAbove}::bigint) AS kept
      WHERE pg_sequence_last_value(identity.seq) > ${resetAbove}::bigint`
  }

  for (const [table, references] of Object.entries(referencesTo)) {
    // Ids as text: beyond 2^53 a JavaScript number would not hold them exactly.
    const unreadable = yield* sql<{ id: string }>`SELECT id::text AS id FROM ${sql(table)}
      WHERE id > ${maxId}::bigint ORDER BY id`
    for (const { id: old } of unreadable) {
      let renumbered: string | undefined
      while (renumbered === undefined) {
        const [next] = yield* sql<{ id: string; taken: boolean }>`SELECT next.id::text AS id,
            EXISTS (SELECT 1 FROM ${sql(table)} WHERE id = next.id) AS taken
          FROM (SELECT nextval(pg_get_serial_sequence(${table}, 'id')) AS id) AS next`
        if (next !== undefined && !next.taken) renumbered = next.id
      }
      // One statement: the foreign keys are checked at its end, when the row and its references have all moved.
      const follow = references.map(([referring, column], index) =>
        sql`${sql(`reference_${index}`)} AS (UPDATE ${sql(referring)} SET ${sql(column)} = ${renumbered}::bigint
          WHERE ${sql(column)} = ${old}::bigint)`
      )
      yield* sql`WITH ${
        sql.csv([
          sql`moved AS (UPDATE ${sql(table)} SET id = ${renumbered}::bigint WHERE id = ${old}::bigint)`,
          ...follow
        ])
      } SELECT 1`
    }
  }

  for (const [table, column] of identityColumns) {
    yield* sql`ALTER TABLE ${sql(table)} ALTER COLUMN ${sql(column)} SET MAXVALUE ${sql.literal(maxId)}`
  }
})
