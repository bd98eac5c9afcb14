import type { DescMessage, DescMethodUnary } from "@bufbuild/protobuf"
import type { MethodSerializationLookup } from "@connectrpc/connect/protocol"
import type { AnswerWriter } from "./answerWriter.ts"
import type { DomainError } from "@club/core"
import type { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"

/** One unary RPC: its descriptor, and the effect that answers a parsed request from a caller's `Authorization`. */
export interface FastUnaryRoute<R> {
  readonly method: DescMethodUnary
  readonly invoke: (request: never, authorization: string | null) => Effect.Effect<object, DomainError, R>
}

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeResponse = ServerResponse | Http2ServerResponse

/** A call the fast path took: its route, the request and its answer, and whether the codec is binary. */
export interface FastCall<R> {
  readonly route: FastUnaryRoute<R> & {
    readonly serialization: MethodSerializationLookup<DescMessage, DescMessage>
    readonly writeAnswer: AnswerWriter
  }
  readonly request: NodeRequest
  readonly response: NodeResponse
  readonly binary: boolean
  /** The request's headers as connect-node gives them to a handler (a repeated one joined by Node). */
  readonly requestHeader: { get(name: string): string | null }
}
