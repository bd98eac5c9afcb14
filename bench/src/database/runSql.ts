import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

/** Runs statements on the database at `url` over one connection of their own, closed afterwards. */
export const runSql = <A>(url: string, use: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* use(sql)
    }).pipe(
      Effect.provide(
        PgClient.layer({ url: Redacted.make(url), maxConnections: 1, connectTimeout: Duration.seconds(10) })
      ),
      Effect.orDie
    )
  )
