import { ClubApi } from "@club/contract/rest"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import type { AccessToken } from "../shared/AccessToken.ts"
import { bearerAuthentication } from "./bearerAuthentication.ts"
import { callClient } from "./callClient.ts"
import type { RestClient } from "./RestClient.ts"
import { callClientSettings, type RestClientOptions } from "./RestClientOptions.ts"

/** A REST client over `fetch` that sends `token` with every call that needs one. */
export const makeRestClient = (
  options: RestClientOptions & { readonly token: AccessToken }
): Effect.Effect<RestClient> =>
  HttpApiClient.make(ClubApi, { baseUrl: options.baseUrl, transformClient: callClient(callClientSettings(options)) })
    .pipe(
      Effect.provide(bearerAuthentication(options.token)),
      Effect.provide(FetchHttpClient.layer)
    )
