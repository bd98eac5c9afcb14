import type { ThrottledKey } from "./LoginAttempts.ts"
import type { AuthSettings } from "./AuthSettings.ts"

/**
 * Who waits after failed logins, and how long (docs/DECISIONS.md, "Login throttling").
 *
 * Failures count per name at a client address, and per client address whatever the names; never
 * per name alone, so that failures from one address never make a client at another wait. Each
 * key has a few failures free; then each further attempt waits a delay that doubles per failure.
 */
export interface LoginThrottle {
  readonly keys: ReadonlyArray<ThrottledKey>
  /** Forgets its failures when a login succeeds. */
  readonly nameAtAddress: string
  /** Keeps its failures when a login succeeds: an attacker logging into its own account must not reset its address. */
  readonly address: string
}

/** Where the adapter could not tell the client's address: all such callers share one. */
const unknownAddress = "unknown"

export const loginThrottle = (settings: AuthSettings, name: string, clientAddress: string | null): LoginThrottle => {
  const at = clientAddress ?? unknownAddress
  const address = `address:${at}`
  // JSON keeps the pair unambiguous whatever characters the name holds.
  const nameAtAddress = `name-at-address:${JSON.stringify([name.toLowerCase(), at])}`
  return {
    keys: [
      { key: address, freeFailures: settings.freeFailuresPerAddress },
      { key: nameAtAddress, freeFailures: settings.freeFailuresPerNameAndAddress }
    ],
    nameAtAddress,
    address
  }
}

/** The waits after the free failures, in ms: the first delay, doubled per failure up to the maximum. */
export const loginDelays = (settings: AuthSettings): ReadonlyArray<number> => {
  const max = settings.maxDelaySeconds * 1000
  const delays: Array<number> = []
  for (let delay = Math.max(1, settings.firstDelaySeconds * 1000); delay < max; delay *= 2) delays.push(delay)
  delays.push(max)
  return delays
}
