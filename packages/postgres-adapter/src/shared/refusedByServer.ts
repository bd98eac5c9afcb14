import { Cause } from "effect"
import { SqlError } from "effect/sql"

/**
 * Whether PostgreSQL itself refused the statement and rolled it back: an ErrorResponse (it carries
 * the server's `severity`) of class 22 (data exception) or 23 (integrity constraint violation),
 * which are about the statement's data, or a transaction PostgreSQL rolled back to break a deadlock
 * (`40P01`) or a serialization failure (`40001`), which are about its timing: in each case nothing
 * was kept, so each of its asks may be tried alone. Anything else (a lost connection, a timeout, an
 * error at COMMIT, class 40's `40003`, statement completion unknown) may have left the write kept,
 * and is never sent again.
 */
export const isRefusedByServer = (error: unknown): boolean => {
  if (!SqlError.isSqlError(error)) return false
  const cause: unknown = error.reason.cause
  if (typeof cause !== "object" || cause === null) return false
  const { code, severity } = cause as { readonly code?: unknown; readonly severity?: unknown }
  return typeof severity === "string" && typeof code === "string" && /^(?:2[23]...|40001|40P01)$/u.test(code)
}

/**
 * Whether a failed write's every reason is a refusal by the server (`isRefusedByServer`) or a
 * domain error `fromRefusal` says a refusal was translated into: then nothing was kept.
 */
export const refusedByServer = <E>(fromRefusal: (error: E) => boolean = () => false) => (cause: Cause.Cause<E>) =>
  cause.reasons.length > 0 &&
  cause.reasons.every((reason) =>
    Cause.isFailReason(reason) && (isRefusedByServer(reason.error) || fromRefusal(reason.error))
  )
