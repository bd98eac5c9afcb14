import { StoreUnavailable } from "@club/core"
import { SqlError } from "effect/sql"

/**
 * SQLSTATEs a PostgreSQL server sends when it cannot take work now rather than because of the
 * statement: shutting down (57P01, 57P02), still starting (57P03), out of connections (53300).
 * Connection failures (class 08, and sockets refused, cut or timed out) are classified by the
 * driver as `ConnectionError` already.
 */
const unavailableStates = new Set(["57P01", "57P02", "57P03", "53300"])

const sqlStateOf = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null ? (cause as { readonly code?: unknown }).code : undefined

/**
 * Whether a failed statement means that the database cannot be reached now, as opposed to a bug
 * or a refused statement. The one rule of this adapter that tells an outage from the rest; core
 * knows only its outcome, `StoreUnavailable`.
 */
export const isOutage = (error: unknown): boolean => {
  if (!SqlError.isSqlError(error)) return false
  const reason = error.reason
  return reason._tag === "ConnectionError" || unavailableStates.has(String(sqlStateOf(reason.cause)))
}

/**
 * The defect a port dies with for an infrastructure error: core's `StoreUnavailable` for an
 * outage (which the adapters answer "unavailable, retry later"), the error itself otherwise.
 */
export const toDefect = (error: unknown): unknown => isOutage(error) ? new StoreUnavailable({ cause: error }) : error
