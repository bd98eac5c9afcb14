import type { LoginDto, UserDto } from "@club/contract/rest"
import { type AccessToken, fromBearer, fromLogin } from "./AccessToken.ts"

/** Who a client calls as: its token, and the user when the client logged in itself. */
export interface ClientIdentity {
  readonly token: AccessToken
  /** Undefined for a client made from a bare token: `auth.me` tells. */
  readonly user: UserDto | undefined
}

export const identityOfToken = (token: string | AccessToken): ClientIdentity => ({
  token: typeof token === "string" ? fromBearer(token) : token,
  user: undefined
})

export const identityOfLogin = (login: LoginDto, now: number): ClientIdentity => ({
  token: fromLogin(login, now),
  user: login.user
})
