import { ClubApi } from "@club/contract/rest"
import { Effect } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { callClient } from "./callClient.ts"
import { callClientSettings, type RestClientOptions } from "./RestClientOptions.ts"

export interface LoginOptions extends RestClientOptions {
  readonly name: string
  readonly password: string
}

/** `POST /auth/login`: the one call that needs no token (never retried: a failed login counts). */
export const login = (options: LoginOptions) =>
  Effect.gen(function*() {
    const httpClient = callClient(callClientSettings(options))(yield* HttpClient.HttpClient)
    const call = yield* HttpApiClient.endpoint(ClubApi, {
      group: "auth",
      endpoint: "login",
      httpClient,
      baseUrl: options.baseUrl
    })
    return yield* call({ payload: { name: options.name, password: options.password } })
  }).pipe(Effect.provide(FetchHttpClient.layer))
