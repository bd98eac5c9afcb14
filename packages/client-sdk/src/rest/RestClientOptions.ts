import type { ClientOptions } from "../shared/ClientOptions.ts"
import { fetchWithHooks } from "../shared/fetchWithHooks.ts"
import { retryPolicy } from "../shared/retryDelay.ts"
import type { CallClientSettings } from "./callClient.ts"

/** The client-wide settings that shape REST requests (the rest of `ClientOptions` concerns the Promise face or TodoService). */
export type RestClientOptions = Pick<
  ClientOptions,
  "baseUrl" | "fetch" | "headers" | "hooks" | "retry" | "tracePropagation"
>

export const callClientSettings = (options: RestClientOptions): CallClientSettings => ({
  fetch: fetchWithHooks(options.fetch, options.hooks),
  headers: options.headers ?? {},
  policy: retryPolicy(options.retry),
  tracePropagation: options.tracePropagation ?? false
})
