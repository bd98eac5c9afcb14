import { Context } from "effect"

export interface AuthSettings {
  readonly tokenTtlSeconds: number
  /**
   * Login throttling (`LoginThrottle.ts`): failed logins one client address may make for one name,
   * and from one address whatever the names, before each further attempt must wait.
   */
  readonly freeFailuresPerNameAndAddress: number
  readonly freeFailuresPerAddress: number
  /** The first wait; it doubles with each further failure, up to `maxDelaySeconds`. */
  readonly firstDelaySeconds: number
  readonly maxDelaySeconds: number
  /** A key's failures are forgotten once this long has passed without a new one. */
  readonly failureWindowSeconds: number
}

export const defaultAuthSettings: AuthSettings = {
  tokenTtlSeconds: 3600,
  freeFailuresPerNameAndAddress: 5,
  freeFailuresPerAddress: 20,
  firstDelaySeconds: 1,
  maxDelaySeconds: 300,
  failureWindowSeconds: 900
}

export const AuthSettings = Context.Reference<AuthSettings>("@club/core/AuthSettings", {
  defaultValue: () => defaultAuthSettings
})
