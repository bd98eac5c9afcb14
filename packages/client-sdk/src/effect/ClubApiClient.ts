import type { UserDto } from "@club/contract/rest"
import { Clock, Context, Effect, Layer } from "effect"
import { type AccessToken, fromBearer, fromLogin } from "../AccessToken.ts"
import { login, type LoginOptions } from "../rest/login.ts"
import { makeRestClient } from "../rest/makeRestClient.ts"
import type { RestClient } from "../rest/RestClient.ts"
import { makeTodoClient, type TodoClient } from "../todo/TodoClient.ts"
import { makeTodoTransport } from "../todo/makeTodoTransport.ts"
import type { TodoProtocol } from "../todo/TodoProtocol.ts"

/** The REST groups of the contract (`sessions`, `athletes`, ...), the TodoService, and who is calling. */
export type ClubApiClientShape = RestClient & {
  readonly todo: TodoClient
  readonly token: AccessToken
  /** The logged-in user; undefined when the client was made from a bare token (see `auth.me`). */
  readonly user: UserDto | undefined
}

export interface TokenOptions {
  readonly baseUrl: string
  /** A bearer token, e.g. from an earlier login; its expiry is read from the JWT. */
  readonly token: string | AccessToken
  readonly todoProtocol?: TodoProtocol | undefined
}

export interface LoginClientOptions extends LoginOptions {
  readonly todoProtocol?: TodoProtocol | undefined
}

const make = (options: TokenOptions, user?: UserDto) =>
  Effect.gen(function*() {
    const token = typeof options.token === "string" ? fromBearer(options.token) : options.token
    const rest = yield* makeRestClient({ baseUrl: options.baseUrl, token })
    // The Connect interceptor runs outside Effect: it reads the same clock as the REST middleware.
    const clock = yield* Clock.Clock
    const transport = makeTodoTransport({
      baseUrl: options.baseUrl,
      token,
      protocol: options.todoProtocol,
      now: () => clock.currentTimeMillisUnsafe()
    })
    const todo = makeTodoClient(transport)
    const client: ClubApiClientShape = { ...rest, todo, token, user }
    return client
  })

const makeByLogin = (options: LoginClientOptions) =>
  Effect.gen(function*() {
    const session = yield* login(options)
    const now = yield* Clock.currentTimeMillis
    return yield* make(
      { baseUrl: options.baseUrl, token: fromLogin(session, now), todoProtocol: options.todoProtocol },
      session.user
    )
  })

/** The Effect face of the SDK: every REST group and the TodoService, with typed errors. */
export class ClubApiClient extends Context.Service<ClubApiClient, ClubApiClientShape>()("@club/client-sdk/ClubApiClient") {
  static readonly make = (options: TokenOptions) => make(options)
  static readonly makeByLogin = makeByLogin
  /** `POST /auth/login` alone: the token, its lifetime and the user. */
  static readonly login = login
  static readonly layer = (options: TokenOptions) => Layer.effect(ClubApiClient, make(options))
  static readonly layerLogin = (options: LoginClientOptions) => Layer.effect(ClubApiClient, makeByLogin(options))
}
