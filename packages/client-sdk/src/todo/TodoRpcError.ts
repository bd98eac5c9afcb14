import { Code, ConnectError } from "@connectrpc/connect"
import { Data } from "effect"
import type { ConnectCodeName } from "../shared/ConnectCodeNames.ts"
import { connectCodeName } from "./connectCodeName.ts"

// connect-web reports a failed `fetch` (server unreachable, connection reset) as `unknown`;
// gRPC and connect-node call that `unavailable`, which tells the caller a retry may help.
const codeOf = (error: ConnectError, thrown: unknown): Code =>
  error.code === Code.Unknown && (thrown instanceof TypeError || error.cause instanceof TypeError)
    ? Code.Unavailable
    : error.code

/** A failed TodoService call: the Connect code and the server's message (without the `[code]` prefix). */
export class TodoRpcError extends Data.TaggedError("TodoRpcError")<{
  readonly code: ConnectCodeName
  readonly message: string
  readonly cause: unknown
}> {
  static from(thrown: unknown): TodoRpcError {
    const error = ConnectError.from(thrown, Code.Unknown)
    return new TodoRpcError({ code: connectCodeName(codeOf(error, thrown)), message: error.rawMessage, cause: thrown })
  }
}
