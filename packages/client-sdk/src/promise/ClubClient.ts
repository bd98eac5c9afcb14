import type { ClientOptions } from "../shared/ClientOptions.ts"
import type { ClientIdentity } from "../shared/ClientIdentity.ts"
import { identityOfToken } from "../shared/ClientIdentity.ts"
import { retryPolicy } from "../shared/retryDelay.ts"
import { makeTodoClient, type TodoClient } from "../todo/TodoClient.ts"
import { makeTodoTransport } from "../todo/makeTodoTransport.ts"
import { type ClubTodoApi, promiseTodo } from "./ClubTodoApi.ts"
import { ClubRestClient, loggedIn, type LoginClientOptions, type TokenClientOptions } from "./ClubRestClient.ts"

/**
 * The Promise face of the whole SDK: the REST API (as `ClubRestClient`) and `todo.TodoService`.
 * Every call is a Promise of the typed answer, or a rejection with a `ClubApiError`.
 */
export class ClubClient extends ClubRestClient {
  /** `POST /auth/login`, then a client that sends the new token with every call. */
  static override async login(options: LoginClientOptions): Promise<ClubClient> {
    return new ClubClient(options, await loggedIn(options))
  }

  /** A client for a token obtained earlier; its expiry is read from the JWT. */
  static override fromToken(options: TokenClientOptions): ClubClient {
    return new ClubClient(options, identityOfToken(options.token))
  }

  /** `todo.TodoService` over Connect (JSON by default) or gRPC-Web. */
  readonly todo: ClubTodoApi
  /** The Effect face's TodoService client underneath. */
  readonly todoClient: TodoClient

  protected constructor(options: ClientOptions, identity: ClientIdentity) {
    super(options, identity)
    this.todoClient = makeTodoClient(
      makeTodoTransport({ ...options, token: identity.token }),
      retryPolicy(options.retry)
    )
    this.todo = promiseTodo(this.todoClient, options.timeoutMs)
  }
}
