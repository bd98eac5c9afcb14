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
export const isRefusedByServer = (error: unknown): boolean =>
  /^(?:2[23]...|40001|40P01)$/u.test(serverErrorCode(error) ?? "")

/**
 * Whether PostgreSQL rolled the statement's transaction back for its timing alone: a deadlock it
 * broke (`40P01`) or a serialization failure (`40001`). Nothing was kept, and the same work done
 * again a moment later may pass (`transaction`, `autocommitWrite`).
 */
export const isRolledBackForItsTiming = (error: unknown): boolean =>
  /^(?:40001|40P01)$/u.test(serverErrorCode(error) ?? "")

/** The SQLSTATE of an ErrorResponse of the server (it carries the server's `severity`), if that is the error. */
const serverErrorCode = (error: unknown): string | undefined => {
  if (!SqlError.isSqlError(error)) return undefined
  const cause: unknown = error.reason.cause
  if (typeof cause !== "object" || cause === null) return undefined
  const { code, severity } = cause as { readonly code?: unknown; readonly severity?: unknown }
  return typeof severity === "string" && typeof code === "string" ? code : undefined
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
