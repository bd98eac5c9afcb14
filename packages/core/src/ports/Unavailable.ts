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
 * Whether a port's defect means that the database cannot be reached now, as opposed to a bug:
 * the adapters answer it "unavailable, retry later" (REST 503, Connect `unavailable`) instead of
 * an internal error. Ports turn infrastructure failures into defects; this is the one rule that
 * tells an outage from the rest.
 */
export const isUnavailable = (defect: unknown): boolean => {
  if (!SqlError.isSqlError(defect)) return false
  const reason = defect.reason
  return reason._tag === "ConnectionError" || unavailableStates.has(String(sqlStateOf(reason.cause)))
}
