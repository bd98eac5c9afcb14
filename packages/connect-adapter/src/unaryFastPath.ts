import type { DescMessage, DescMethodUnary, MessageInitShape } from "@bufbuild/protobuf"
import { create } from "@bufbuild/protobuf"
import type { JsonWriteOptions } from "@bufbuild/protobuf"
import { Code, ConnectError } from "@connectrpc/connect"
import {
  compressionNegotiate,
  createMethodSerializationLookup,
  type MethodSerializationLookup,
  validateUniversalHandlerOptions
} from "@connectrpc/connect/protocol"
import { codeToHttpStatus, errorToJsonBytes, parseContentType } from "@connectrpc/connect/protocol-connect"
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node"
import type { DomainError } from "@club/core"
import type { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import type { EdgeRunner } from "./EdgeRunner.ts"
import { readBody } from "./readBody.ts"

/** One unary RPC: its descriptor, and the effect that answers a parsed request from a caller's `Authorization`. */
export interface FastUnaryRoute<R> {
  readonly method: DescMethodUnary
  readonly invoke: (request: never, authorization: string | null) => Effect.Effect<object, DomainError, R>
}

export interface FastPathOptions {
  readonly readMaxBytes: number
  readonly jsonOptions: Partial<JsonWriteOptions>
}

interface CompiledRoute<R> extends FastUnaryRoute<R> {
  readonly serialization: MethodSerializationLookup<DescMessage, DescMessage>
}

type NodeRequest = IncomingMessage | Http2ServerRequest
type NodeResponse = ServerResponse | Http2ServerResponse

/** One request header as a single value, as connect-node's `Headers` give it; a repeated one is joined by Node. */
const headerOf = (request: IncomingMessage, name: string): string | null => {
  const value = request.headers[name]
  return typeof value === "string" ? value : null
}

/**
 * The Connect protocol's unary POST, JSON or binary, answered without connect-node's generic
 * machinery: its universal request and response (async iterables), its linked abort signals
 * and web `Headers`, its interceptor
 * chain (authentication runs in the same fiber as the RPC instead). What a client sees is
 * connect-node's answer: same status, headers, body and error JSON, built with connect's own
 * serialization, error encoding and compression negotiation (test/unaryFastPath.test.ts
 * compares the two).
 *
 * Only plain cases are taken: POST over HTTP/1.x, a Connect unary content type, a declared
 * length within the limit, no request compression, no timeout header. Everything else (gRPC,
 * gRPC-Web, HTTP/2, GET, streaming, compressed or chunked requests) answers false and goes to
 * connect-node.
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
  const byPath = new Map<string, CompiledRoute<R>>(routes.map((route) => [
    `/${route.method.parent.typeName}/${route.method.name}`,
    {
      ...route,
      serialization: createMethodSerializationLookup(
        route.method,
        handlerOptions.binaryOptions,
        handlerOptions.jsonOptions,
        handlerOptions
      )
    }
  ]))

  /** As connect-node serializes an answer: the message, created from the handler's output, with connect's serialization. */
  const serialize = (route: CompiledRoute<R>, binary: boolean, output: object): Uint8Array =>
    route.serialization.getO(binary).serialize(create(route.method.output, output as MessageInitShape<DescMessage>))

  const answer = async (
    route: CompiledRoute<R>,
    request: IncomingMessage,
    response: NodeResponse,
    binary: boolean,
    length: number
  ) => {
    const gone = new AbortController()
    response.once("close", () => {
      if (!response.writableFinished) gone.abort()
    })
    let status = 200
    let contentType = binary ? "application/proto" : "application/json"
    let body: Uint8Array
    try {
      const input = route.serialization.getI(binary).parse(await readBody(request, length))
      const authorization = request.headers.authorization ?? null
      const output = await run(route.invoke(input as never, authorization), {
        signal: gone.signal,
        method: route.method,
        requestHeader: { get: (name) => headerOf(request, name) }
      })
      body = serialize(route, binary, output)
    } catch (cause) {
      if (gone.signal.aborted) return
      const error = cause instanceof ConnectError
        ? cause
        : new ConnectError("internal error", Code.Internal, undefined, undefined, cause)
      status = codeToHttpStatus(error.code)
      contentType = "application/json"
      body = errorToJsonBytes(error, handlerOptions.jsonOptions)
    }
    if (gone.signal.aborted) return
    const headers: Record<string, string> = { "content-type": contentType }
    const accepted = request.headers["accept-encoding"] ?? null
    const compression = accepted === null
      ? undefined
      : compressionNegotiate(handlerOptions.acceptCompression, null, accepted, "Accept-Encoding").response
    if (compression !== null && compression !== undefined && body.byteLength >= handlerOptions.compressMinBytes) {
      body = await compression.compress(body)
      headers["content-encoding"] = compression.name
    }
    headers["content-length"] = String(body.byteLength)
    ;(response as ServerResponse).writeHead(status, headers)
    response.end(body)
  }

  /** Answers the request and returns true, or returns false without touching it. */
  return (request: NodeRequest, response: NodeResponse): boolean => {
    if (request.method !== "POST" || request.httpVersionMajor !== 1) return false
    const route = byPath.get(request.url ?? "")
    if (route === undefined) return false
    const headers = request.headers
    const type = parseContentType(headers["content-type"] ?? null)
    if (type === undefined || type.stream) return false
    const encoding = headers["content-encoding"]
    if ((encoding !== undefined && encoding !== "identity") || headers["connect-timeout-ms"] !== undefined) return false
    const length = Number(headers["content-length"] ?? NaN)
    if (!Number.isSafeInteger(length) || length > options.readMaxBytes) return false
    void answer(route, request as IncomingMessage, response, type.binary, length)
    return true
  }
}
