import type { LoginDto } from "@club/contract/rest"

/** A bearer token and the moment (epoch milliseconds) it stops being accepted, when known. */
export interface AccessToken {
  readonly value: string
  readonly expiresAt: number | undefined
}

export const TOKEN_EXPIRED_MESSAGE = "The session token has expired; log in again"

/** The JWT `exp` claim in epoch milliseconds, or undefined when the token is not a readable JWT. */
const jwtExpiry = (token: string): number | undefined => {
  const payload = token.split(".")[1]
  if (payload === undefined) return undefined
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"))
    const exp: unknown = JSON.parse(json)?.exp
    return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : undefined
  } catch {
    return undefined
  }
}

/** A token given by the caller: its lifetime is read from the JWT, if it is one. */
export const fromBearer = (token: string): AccessToken => ({ value: token, expiresAt: jwtExpiry(token) })

/**
 * A token from `POST /auth/login`. `expiresIn` is relative, so it is measured on the local
 * clock and a clock skew between client and server does not matter.
 */
export const fromLogin = (login: LoginDto, now: number): AccessToken => ({
  value: login.token,
  expiresAt: now + login.expiresIn * 1000
})

export const isExpired = (token: AccessToken, now: number): boolean =>
  token.expiresAt !== undefined && now >= token.expiresAt
