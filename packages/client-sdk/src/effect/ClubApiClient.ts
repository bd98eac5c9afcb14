import type { UserDto } from "@club/contract/rest"
import { Clock, Context, Effect, Layer } from "effect"
import { login } from "../rest/login.ts"
import { makeRestClient } from "../rest/makeRestClient.ts"
import type { RestClient } from "../rest/RestClient.ts"
import type { AccessToken } from "../shared/AccessToken.ts"
import type { ClientOptions } from "../shared/ClientOptions.ts"
import { type ClientIdentity, identityOfLogin, identityOfToken } from "../shared/ClientIdentity.ts"
import { retryPolicy } from "../shared/retryDelay.ts"
import { makeTodoClient, type TodoClient } from "../todo/TodoClient.ts"
import { makeTodoTransport } from "../todo/makeTodoTransport.ts"

/** The REST groups of the contract (`sessions`, `athletes`, ...), the TodoService, and who is calling. */
export type ClubApiClientShape = RestClient & {
  readonly todo: TodoClient
  readonly token: AccessToken
  /** The logged-in user; undefined when the client was made from a bare token (see `auth.me`). */
  readonly user: UserDto | undefined
}

export interface TokenOptions extends ClientOptions {
  /** A bearer token, e.g. from an earlier login; its expiry is read from the JWT. */
  readonly token: string | AccessToken
}

export interface LoginClientOptions extends ClientOptions {
  readonly name: string
  readonly password: string
}

const make = (options: ClientOptions, identity: ClientIdentity) =>
  Effect.gen(function*() {
    const rest = yield* makeRestClient({ ...options, token: identity.token })
    // The Connect interceptor runs outside Effect: it reads the same clock as the REST middleware.
    const clock = yield* Clock.Clock
    const transport = makeTodoTransport({
      ...options,
      token: identity.token,
      now: () => clock.currentTimeMillisUnsafe()
    })
    const todo = makeTodoClient(transport, retryPolicy(options.retry))
    const client: ClubApiClientShape = { ...rest, todo, token: identity.token, user: identity.user }
    return client
  })

const makeByLogin = (options: LoginClientOptions) =>
  Effect.gen(function*() {
    const session = yield* login(options)
    return yield* make(options, identityOfLogin(session, yield* Clock.currentTimeMillis))
  })

/**
 * The Effect face of the SDK: every REST group and the TodoService, with typed errors. Its calls
 * take the options of one call the Effect way: interrupt the fiber to abandon it, `Effect.timeout`
 * for a time limit, `withCallOptions({ headers, idempotencyKey })` for headers and an idempotency key.
 */
export class ClubApiClient
  extends Context.Service<ClubApiClient, ClubApiClientShape>()("@club/client-sdk/ClubApiClient")
{
  static readonly make = (options: TokenOptions) => make(options, identityOfToken(options.token))
  static readonly makeByLogin = makeByLogin
  /** `POST /auth/login` alone: the token, its lifetime and the user. */
  static readonly login = login
  static readonly layer = (options: TokenOptions) => Layer.effect(ClubApiClient, ClubApiClient.make(options))
  static readonly layerLogin = (options: LoginClientOptions) => Layer.effect(ClubApiClient, makeByLogin(options))
}
