import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/**
 * One transaction that, once begun, runs to its commit or rollback even when the caller goes away
 * (a client disconnecting mid-request interrupts its fiber). Cut half-way, the driver has to throw
 * the connection away to be rid of the open transaction; on the embedded database, whose single
 * connection carries every request, its replacement was refused until the old one drained, and
 * every request in between failed (bench: PUT /session/update after a load generator stopped).
 * A transaction here is a few statements long, so finishing it costs less than any cleanup.
 */
export const transaction = (sql: SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.uninterruptible(sql.withTransaction(effect))
