import { ClubApi } from "@club/contract/rest"
import { Effect } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"

export interface LoginOptions {
  readonly baseUrl: string
  readonly name: string
  readonly password: string
}

/** `POST /auth/login`: the one call that needs no token. */
export const login = (options: LoginOptions) =>
  Effect.gen(function*() {
    const httpClient = yield* HttpClient.HttpClient
    const call = yield* HttpApiClient.endpoint(ClubApi, {
      group: "auth",
      endpoint: "login",
      httpClient,
      baseUrl: options.baseUrl
    })
    return yield* call({ payload: { name: options.name, password: options.password } })
  }).pipe(Effect.provide(FetchHttpClient.layer))
