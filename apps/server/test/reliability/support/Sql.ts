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

/** Tables whose rows a refused request may legitimately write: a failed login is counted (throttling). */
const bookkeeping = new Set(["login_throttle", "login_failures", "effect_sql_migrations"])

/** One hash of every stored row of every table but the bookkeeping ones: equal hashes, equal data. */
export const databaseDigest = async (sql: Sql): Promise<string> => {
  const tables = await sql.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
  )
  const parts = tables
    .map((row) => row.table_name)
    .filter((name) => !bookkeeping.has(name))
    .map((name) =>
      `SELECT '${name}' AS t, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS h FROM "${name}" r`
    )
  const [row] = await sql.query<{ digest: string }>(
    `SELECT md5(string_agg(t || ':' || h, ',' ORDER BY t)) AS digest FROM (${parts.join(" UNION ALL ")}) s`
  )
  return row!.digest
}
