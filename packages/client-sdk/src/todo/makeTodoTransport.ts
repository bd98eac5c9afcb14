import type { Interceptor, Transport } from "@connectrpc/connect"
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web"
import type { AccessToken } from "../shared/AccessToken.ts"
import type { ClientOptions } from "../shared/ClientOptions.ts"
import { fetchWithHooks } from "../shared/fetchWithHooks.ts"
import { bearerInterceptor } from "./bearerInterceptor.ts"

export interface TodoTransportOptions
  extends Pick<ClientOptions, "baseUrl" | "fetch" | "headers" | "hooks" | "todoProtocol">
{
  readonly token: AccessToken
  /** The clock the token's expiry is checked against; defaults to `Date.now`. */
  readonly now?: (() => number) | undefined
}

/** The client's headers on every call, under the call's own (an interceptor sees the call's headers already set). */
const defaultHeaders = (headers: Readonly<Record<string, string>>): Interceptor => (next) => (request) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!request.header.has(name)) request.header.set(name, value)
  }
  return next(request)
}

/** A Connect transport to TodoService: Connect JSON (default), Connect binary or gRPC-Web, over the client's `fetch`. */
export const makeTodoTransport = (options: TodoTransportOptions): Transport => {
  const common = {
    baseUrl: options.baseUrl,
    fetch: fetchWithHooks(options.fetch, options.hooks),
    interceptors: [defaultHeaders(options.headers ?? {}), bearerInterceptor(options.token, options.now)]
  }
  switch (options.todoProtocol ?? "connect-json") {
    case "connect-json":
      return createConnectTransport(common)
    case "connect-binary":
      return createConnectTransport({ ...common, useBinaryFormat: true })
    case "grpc-web":
      return createGrpcWebTransport(common)
  }
}
