import type { JsonWriteOptions } from "@bufbuild/protobuf"
import { createMethodSerializationLookup, validateUniversalHandlerOptions } from "@connectrpc/connect/protocol"
import { parseContentType as parseConnectContentType } from "@connectrpc/connect/protocol-connect"
import { parseContentType as parseGrpcContentType } from "@connectrpc/connect/protocol-grpc"
import { parseContentType as parseGrpcWebContentType } from "@connectrpc/connect/protocol-grpc-web"
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { makeAnswerWriter } from "./answerWriter.ts"
import { makeConnectUnaryAnswer } from "./connectUnaryAnswer.ts"
import type { EdgeRunner } from "./EdgeRunner.ts"
import type { FastCall, FastUnaryRoute } from "./FastCall.ts"
import { makeGrpcUnaryAnswer } from "./grpcUnaryAnswer.ts"
import type { BodyRead } from "./readBodyUpTo.ts"

export interface FastPathOptions {
  readonly readMaxBytes: number
  readonly jsonOptions: Partial<JsonWriteOptions>
  /**
   * Serves a gRPC or gRPC-Web call whose body the fast path has begun to read but does not answer
   * itself (see grpcUnaryAnswer.ts): connect-node's handler, given the bytes already read.
   */
  readonly handOver: (request: NodeRequest, response: NodeResponse, read: BodyRead) => void
}

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeResponse = ServerResponse | Http2ServerResponse

/**
 * Unary calls answered without connect-node's generic machinery: its universal request and
 * response (async iterables), its linked abort signals and web `Headers`, its interceptor chain
 * (authentication runs in the same fiber as the RPC instead). What a client sees is connect-node's
 * answer: same status, headers, body and trailers (test/unaryFastPath.test.ts and
 * grpcUnaryFastPath.test.ts compare the two on one suite of calls per protocol).
 *
 * Only plain calls are taken, each by the protocol that speaks it:
 * - Connect: a POST over HTTP/1.1 of a unary content type, its length declared and within the
 *   limit, not compressed, without a timeout;
 * - gRPC-Web (HTTP/1.1, its length declared) and gRPC (HTTP/2): binary or JSON, without a timeout
 *   or a compressed request (`grpc-encoding`).
 * Everything else (streaming, GET, HTTP/2 Connect, gRPC-Web text, compressed or chunked Connect
 * requests, timeouts) answers false and goes to connect-node.
 */
export const makeUnaryFastPath = <R>(
  routes: ReadonlyArray<FastUnaryRoute<R>>,
  run: EdgeRunner<R>,
  options: FastPathOptions
) => {
  const handlerOptions = validateUniversalHandlerOptions({
    acceptCompression: [compressionGzip, compressionBrotli],
    readMaxBytes: options.readMaxBytes,
    jsonOptions: options.jsonOptions
  })
  const byPath = new Map<string, FastCall<R>["route"]>(routes.map((route) => {
    const serialization = createMethodSerializationLookup(
      route.method,
      handlerOptions.binaryOptions,
      handlerOptions.jsonOptions,
      handlerOptions
    )
    return [
      `/${route.method.parent.typeName}/${route.method.name}`,
      { ...route, serialization, writeAnswer: makeAnswerWriter(route.method, serialization, handlerOptions) }
    ]
  }))
  const answerConnect = makeConnectUnaryAnswer(run, handlerOptions)
  const answerGrpc = makeGrpcUnaryAnswer(
    run,
    handlerOptions,
    (call: FastCall<R>, read: BodyRead) => options.handOver(call.request, call.response, read)
  )

  const callOf = (route: FastCall<R>["route"], request: NodeRequest, response: NodeResponse, binary: boolean) => ({
    route,
    request,
    response,
    binary,
    requestHeader: {
      get: (name: string) => {
        const value = request.headers[name]
        return typeof value === "string" ? value : null
      }
    }
  })

  /** Answers the request and returns true, or returns false without touching it. */
  return (request: NodeRequest, response: NodeResponse): boolean => {
    if (request.method !== "POST") return false
    const route = byPath.get(request.url ?? "")
    if (route === undefined) return false
    const headers = request.headers
    const contentType = headers["content-type"] ?? null
    if (request.httpVersionMajor === 2) {
      const grpc = parseGrpcContentType(contentType)
      if (grpc === undefined || headers["grpc-timeout"] !== undefined || headers["grpc-encoding"] !== undefined) {
        return false
      }
      void answerGrpc(callOf(route, request, response, grpc.binary), false)
      return true
    }
    const length = Number(headers["content-length"] ?? NaN)
    if (!Number.isSafeInteger(length)) return false
    const connect = parseConnectContentType(contentType)
    if (connect !== undefined) {
      const encoding = headers["content-encoding"]
      if (
        connect.stream || (encoding !== undefined && encoding !== "identity") ||
        headers["connect-timeout-ms"] !== undefined || length > options.readMaxBytes
      ) return false
      void answerConnect(callOf(route, request, response, connect.binary), length)
      return true
    }
    const web = parseGrpcWebContentType(contentType)
    if (
      web === undefined || web.text || headers["grpc-timeout"] !== undefined || headers["grpc-encoding"] !== undefined
    ) return false
    void answerGrpc(callOf(route, request, response, web.binary), true)
    return true
  }
}
