import { Cause } from "effect"

interface Described {
  readonly message?: unknown
  readonly code?: unknown
  readonly path?: unknown
  readonly cause?: unknown
  readonly reason?: unknown
}

/** The errors a failure wraps, outermost first: `cause` (Node, Effect) and `reason` (effect/sql's SqlError). */
const chainOf = (error: unknown): Array<Described> => {
  const chain: Array<Described> = []
  for (let current = error; typeof current === "object" && current !== null && chain.length < 16;) {
    const described = current as Described
    chain.push(described)
    current = described.cause ?? described.reason
  }
  return chain
}

const writeCodes = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "ENOSPC", "EEXIST"])

/**
 * Why the server stopped, in one line an operator can act on, from the failure's innermost error:
 * a database that does not exist, an address already in use, a data directory that cannot be
 * written; otherwise that error's own first line.
 */
export const failureReason = (cause: Cause.Cause<unknown>): string => {
  const chain = chainOf(Cause.squash(cause))
  const inUse = chain.find((error) => error.code === "EADDRINUSE")
  if (inUse !== undefined) {
    const address = /in use (\S+)$/u.exec(String(inUse.message))?.[1]
    return `the address ${address ?? "asked for"} is already in use: stop what listens there, or set PORT (or HOST)`
  }
  const unwritable = chain.find((error) => writeCodes.has(String(error.code)) && typeof error.path === "string")
  if (unwritable !== undefined) {
    return `${String(unwritable.path)} cannot be written (${
      String(unwritable.code)
    }): DATA_DIR must be a folder this user can create and write`
  }
  const innermost = [...chain].reverse().find((error) => typeof error.message === "string" && error.message !== "")
  const message = String(innermost?.message ?? Cause.pretty(cause)).split("\n")[0]!
  if (/^database ".*" does not exist$/u.test(message)) return `${message}: create it first (createdb), then start again`
  return message
}
