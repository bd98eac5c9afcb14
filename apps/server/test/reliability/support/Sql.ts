import { PgClient } from "@effect/sql-pg"
import { ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"

/** Plain SQL against a test database, for checks that look past the API (what is stored, a digest of it). */
export interface Sql {
  readonly query: <A = Record<string, unknown>>(text: string) => Promise<ReadonlyArray<A>>
  readonly close: () => Promise<void>
}

export const openSql = async (url: string): Promise<Sql> => {
  const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))
  return {
    query: <A>(text: string) =>
      runtime.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe<A & object>(text))) as Promise<ReadonlyArray<A>>,
    close: () => runtime.dispose()
  }
}

/**
 * Tables whose rows change without an accepted write: a failed login is counted (throttling), and the
 * webhook dispatcher works in the background on the deliveries accepted writes queued (their attempts,
 * their state, a receiver parked). A delivery is queued in its event's statement, which the digest
 * still sees (`attendance_events`).
 */
const bookkeeping = new Set([
  "login_throttle",
  "login_failures",
  "effect_sql_migrations",
  "webhook_deliveries",
  "webhook_attempts"
])

/** Columns of a table the background work writes, left out of its rows' digest. */
const backgroundColumns: Readonly<Record<string, ReadonlyArray<string>>> = { webhooks: ["parked_until"] }

const rowText = (table: string) => {
  const columns = backgroundColumns[table]
  return columns === undefined ? "r::text" : `(to_jsonb(r) - ARRAY[${columns.map((c) => `'${c}'`).join(", ")}])::text`
}

/** One hash of every stored row of every table but the bookkeeping ones: equal hashes, equal data. */
export const databaseDigest = async (sql: Sql): Promise<string> => {
  const tables = await sql.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
  )
  const parts = tables
    .map((row) => row.table_name)
    .filter((name) => !bookkeeping.has(name))
    .map((name) =>
      `SELECT '${name}' AS t, md5(coalesce(string_agg(${rowText(name)}, '|' ORDER BY ${
        rowText(name)
      }), '')) AS h FROM "${name}" r`
    )
  // Each table's hash kept apart, so a change names its tables (`changedTables`).
  const [row] = await sql.query<{ digest: string }>(
    `SELECT string_agg(t || ':' || h, ',' ORDER BY t) AS digest FROM (${parts.join(" UNION ALL ")}) s`
  )
  return row!.digest
}

/** The tables whose rows differ between two `databaseDigest`s; empty for another kind of digest. */
export const changedTables = (before: string, after: string): ReadonlyArray<string> => {
  if (!before.includes(":")) return []
  const hashes = (digest: string) => new Map(digest.split(",").map((part) => part.split(":") as [string, string]))
  const [was, is] = [hashes(before), hashes(after)]
  return [...new Set([...was.keys(), ...is.keys()])].filter((table) => was.get(table) !== is.get(table))
}
