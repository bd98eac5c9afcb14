import type { UserDto } from "@club/contract/rest"
import { ClubApiError } from "../shared/ClubApiError.ts"
import type { PromiseRestGroups } from "../promise/PromiseRest.ts"
import { type AccessToken, isExpired } from "../shared/AccessToken.ts"
import type { ClientOptions } from "../shared/ClientOptions.ts"
import { type ClientIdentity, identityOfLogin, identityOfToken } from "../shared/ClientIdentity.ts"
import { callContext, fetchCall } from "./fetchCall.ts"
import { operations } from "./operations.gen.ts"

export interface LoginClientOptions extends ClientOptions {
  readonly name: string
  readonly password: string
}

export interface TokenClientOptions extends ClientOptions {
  /** A bearer token, e.g. from an earlier login; its expiry is read from the JWT. */
  readonly token: string | AccessToken
}

/**
 * The Promise face of the REST API without Effect's runtime: the same groups, calls, requests,
 * answers and `ClubApiError`s as `ClubRestClient` of `@club/client-sdk/rest`, on `fetch` and a
 * table of the contract's operations generated at build time. For a browser bundle that must stay
 * small. It leaves the checks of a request to the server: a bad argument is the server's 400
 * (`InvalidRequest`, or the seed's own failure), not a local `InvalidInput`.
 */
// oxlint-disable-next-line no-unsafe-declaration-merging -- the interface below declares the groups the constructor assigns
export class ClubRestClient {
  /** `POST /auth/login`, then a client that sends the new token with every call. */
  static async login(options: LoginClientOptions): Promise<ClubRestClient> {
    const answer = await fetchCall(callContext(options, undefined), operations["auth"]!["login"]!, {
      payload: { name: options.name, password: options.password }
    }, undefined)
    return new ClubRestClient(options, identityOfLogin(answer as never, Date.now()))
  }

  /** A client for a token obtained earlier; its expiry is read from the JWT. */
  static fromToken(options: TokenClientOptions): ClubRestClient {
    return new ClubRestClient(options, identityOfToken(options.token))
  }

  /** The logged-in user (undefined for `fromToken`: see `auth.me()`). */
  readonly user: UserDto | undefined
  /** The bearer token, e.g. to keep for `fromToken`. */
  readonly token: string
  /** When the token stops being accepted, when known. */
  readonly expiresAt: Date | undefined

  protected constructor(options: ClientOptions, protected readonly identity: ClientIdentity) {
    this.user = identity.user
    this.token = identity.token.value
    this.expiresAt = identity.token.expiresAt === undefined ? undefined : new Date(identity.token.expiresAt)
    const context = callContext(options, identity.token)
    for (const [group, calls] of Object.entries(operations)) {
      ;(this as unknown as Record<string, unknown>)[group] = Object.fromEntries(
        Object.entries(calls).map(([name, operation]) => [
          name,
          (...args: Array<unknown>) => {
            const [request, callOptions] = operation.r === 1 ? args : [undefined, args[0]]
            return fetchCall(context, operation, request as never, callOptions as never)
          }
        ])
      )
    }
  }

  /** Whether the token's lifetime is over; every call would then fail with `TokenExpired`. */
  isExpired(): boolean {
    return isExpired(this.identity.token, Date.now())
  }
}

// The groups are assigned in the constructor, from the generated table of the contract's operations.
export interface ClubRestClient extends PromiseRestGroups {}

export { ClubApiError }
