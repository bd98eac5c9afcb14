import type { Transport } from "@connectrpc/connect"
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web"
import type { AccessToken } from "../AccessToken.ts"
import { bearerInterceptor } from "./bearerInterceptor.ts"
import type { TodoProtocol } from "./TodoProtocol.ts"

export interface TodoTransportOptions {
  readonly baseUrl: string
  readonly token: AccessToken
  /** Defaults to `"connect-json"`. */
  readonly protocol?: TodoProtocol | undefined
  /** The clock the token's expiry is checked against; defaults to `Date.now`. */
  readonly now?: (() => number) | undefined
}

export const makeTodoTransport = (options: TodoTransportOptions): Transport => {
  const common = { baseUrl: options.baseUrl, interceptors: [bearerInterceptor(options.token, options.now)] }
  switch (options.protocol ?? "connect-json") {
    case "connect-json":
      return createConnectTransport(common)
    case "connect-binary":
      return createConnectTransport({ ...common, useBinaryFormat: true })
    case "grpc-web":
      return createGrpcWebTransport(common)
  }
}
