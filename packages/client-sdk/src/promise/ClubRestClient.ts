import type { UserDto } from "@club/contract/rest"
import { Clock, Effect } from "effect"
import { login } from "../rest/login.ts"
import { makeRestClient } from "../rest/makeRestClient.ts"
import type { RestClient } from "../rest/RestClient.ts"
import { type AccessToken, isExpired } from "../shared/AccessToken.ts"
import type { ClientOptions } from "../shared/ClientOptions.ts"
import { type ClientIdentity, identityOfLogin, identityOfToken } from "../shared/ClientIdentity.ts"
import { type PromiseRestGroups, promiseRestGroups } from "./PromiseRest.ts"
import { runCall } from "./runCall.ts"

export interface LoginClientOptions extends ClientOptions {
  readonly name: string
  readonly password: string
}

export interface TokenClientOptions extends ClientOptions {
  /** A bearer token, e.g. from an earlier login; its expiry is read from the JWT. */
  readonly token: string | AccessToken
}

/** `POST /auth/login` with the client's options, then who the new client calls as. */
export const loggedIn = (options: LoginClientOptions): Promise<ClientIdentity> =>
  runCall(
    login(options).pipe(
      Effect.flatMap((session) => Effect.map(Clock.currentTimeMillis, (now) => identityOfLogin(session, now)))
    ),
    undefined,
    options.timeoutMs
  )

/**
 * The Promise face of the REST API: every group of the contract (`sessions`, `athletes`,
 * `schedule`, …), each call a Promise of the typed answer or a rejection with a `ClubApiError`.
 * This entry point (`@club/client-sdk/rest`) carries no protobuf; `ClubClient` adds TodoService.
 */
// oxlint-disable-next-line no-unsafe-declaration-merging -- the interface below declares the groups the constructor assigns
export class ClubRestClient {
  /** `POST /auth/login`, then a client that sends the new token with every call. */
  static async login(options: LoginClientOptions): Promise<ClubRestClient> {
    return new ClubRestClient(options, await loggedIn(options))
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
  /** The Effect face's REST client underneath, for code that mixes both. */
  readonly rest: RestClient

  protected constructor(options: ClientOptions, protected readonly identity: ClientIdentity) {
    this.user = identity.user
    this.token = identity.token.value
    this.expiresAt = identity.token.expiresAt === undefined ? undefined : new Date(identity.token.expiresAt)
    this.rest = Effect.runSync(makeRestClient({ ...options, token: identity.token }))
    Object.assign(this, promiseRestGroups(this.rest, options.timeoutMs))
  }

  /** Whether the token's lifetime is over; every call would then fail with `TokenExpired`. */
  isExpired(): boolean {
    return isExpired(this.identity.token, Date.now())
  }
}

// The groups are assigned in the constructor, from the contract itself.
export interface ClubRestClient extends PromiseRestGroups {}
