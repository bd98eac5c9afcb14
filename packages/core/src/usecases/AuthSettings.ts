import { Context } from "effect"

export interface AuthSettings {
  readonly tokenTtlSeconds: number
  /** Failed logins counted per user name and per client address within `failureWindowSeconds`. */
  readonly maxFailuresPerName: number
  readonly maxFailuresPerClient: number
  readonly failureWindowSeconds: number
}

export const AuthSettings = Context.Reference<AuthSettings>("@club/core/AuthSettings", {
  defaultValue: () => ({
    tokenTtlSeconds: 3600,
    maxFailuresPerName: 5,
    maxFailuresPerClient: 20,
    failureWindowSeconds: 900
  })
})
