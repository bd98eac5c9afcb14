import { Duration, Effect, Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"
import { pingDatabase } from "../database/pingDatabase.ts"

/** Whether a PostgreSQL server answers `SELECT 1` at `url` within `timeout`. Never fails. */
export const serverAnswers = (url: string, timeout: Duration.Input = Duration.seconds(5)): Effect.Effect<boolean> =>
  pingDatabase.pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, connectTimeout: timeout })),
    Effect.timeout(timeout),
    Effect.as(true),
    Effect.catchCause(() => Effect.succeed(false))
  )
