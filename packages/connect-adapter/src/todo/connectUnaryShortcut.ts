import { AuditActor, type AuthService, CurrentActor, type DomainError, type TaskService } from "@club/core"
import {
  create,
  type DescMessage,
  type DescMethodUnary,
  fromBinary,
  fromJsonString,
  type JsonReadOptions,
  type JsonWriteOptions,
  type MessageInitShape,
  toBinary
} from "@bufbuild/protobuf"
import { Code, ConnectError } from "@connectrpc/connect"
import type { Compression } from "@connectrpc/connect/protocol"
import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2"
import { TodoService } from "@club/contract/todo"
import { authenticateBearer } from "../auth/authenticateBearer.ts"
import { connectErrorAnswer } from "../shared/connectErrorAnswer.ts"
import type { EdgeRunner } from "../shared/EdgeRunner.ts"
import { readGrpcBody } from "../shared/grpcEnvelope.ts"
import { grpcStatusMessage } from "../shared/grpcStatusMessage.ts"
import { type JsonWriter, makeJsonWriter } from "../shared/jsonWriter.ts"
import { todoOperations } from "./todoOperations.ts"

type NodeRequest = IncomingMessage | Http2ServerRequest

/** The request's id, which the server's listener set on the request before anything served it. */
const requestIdOf = (headers: NodeRequest["headers"]): string | null => {
  const id = headers["x-request-id"]
  return typeof id === "string" ? id : null
}
type NodeResponse = ServerResponse | Http2ServerResponse

/** One RPC of TodoService: its descriptor, and its operation run as the caller of an `Authorization` header. */
interface ShortcutRoute {
  readonly method: DescMethodUnary
  readonly invoke: (
    request: never,
    authorization: string | null,
    requestId: string | null
  ) => Effect.Effect<object, DomainError, TaskService | AuthService>
}

/**
 * TodoService's RPCs: the caller authenticated by the function the auth interceptor calls, then
 * the same operation as connect-node's route, in one run (one fiber, one span).
 */
const routes: ReadonlyArray<ShortcutRoute> = (["createTask", "listTasks", "deleteTask"] as const).map((name) => ({
  method: TodoService.method[name],
  invoke: (request: never, authorization: string | null, requestId: string | null) =>
    Effect.flatMap(authenticateBearer(authorization), (actor) => {
      const operation: (request: never) => Effect.Effect<object, DomainError, TaskService | CurrentActor> =
        todoOperations[name]
      return operation(request).pipe(
        Effect.provideService(CurrentActor, actor),
        Effect.provideService(AuditActor, { userId: actor.userId, role: actor.role, requestId })
      )
    })
}))

/** The unary content types of the Connect protocol, and whether each is binary. */
const unaryContentTypes = new Map([
  ["application/proto", true],
  ["application/json", false],
  ["application/json; charset=utf-8", false],
  ["application/json;charset=utf-8", false]
])

/**
 * gRPC's content types (`application/grpc`, `+proto`, `+json` with or without its charset), as
 * connect-node matches them, and whether each is binary.
 */
const grpcContentType = /^application\/grpc(?:\+(?:(json)(?:; ?charset=utf-?8)?|proto))?$/i

/** The length prefix of a gRPC message: its flags (1: compressed), then its length. */
const grpcPrefix = (flags: number, length: number): Buffer => {
  const prefix = Buffer.alloc(5)
  prefix[0] = flags
  prefix.writeUInt32BE(length, 1)
  return prefix
}

/** The whole body of a request that declared its length; rejects when the client goes away first. */
const readBody = (request: NodeRequest, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)))
    request.once("error", reject)
    request.once("aborted", () => reject(new ConnectError("the client went away", Code.Canceled)))
  })

/** A signal aborted when the client goes before the answer is written. */
const goneSignal = (response: NodeResponse): AbortSignal => {
  const gone = new AbortController()
  response.once("close", () => {
    if (!response.writableFinished) gone.abort()
  })
  return gone.signal
}

export interface ConnectUnaryShortcutOptions {
  readonly readMaxBytes: number
  /** The compressions connect-node is given, in its order; an answer from `compressMinBytes` on is compressed. */
  readonly acceptCompression: ReadonlyArray<Compression>
  readonly compressMinBytes: number
  /** connect's JSON options as connect-node is given them, the decoder of request text included. */
  readonly jsonOptions: Partial<JsonReadOptions & JsonWriteOptions> & {
    readonly textDecoder: { decode(input?: Uint8Array): string }
  }
  /**
   * Serves a gRPC call whose body the shortcut began to read and found not one plain message:
   * connect-node's handler of the method, given the bytes read and the rest of the body.
   */
  readonly handOver: (request: NodeRequest, response: NodeResponse, body: AsyncIterable<Uint8Array>) => void
}

/**
 * Plain unary calls of TodoService answered without connect-node's generic machinery (its
 * universal request and response, async-iterable pipes, linked abort signals, web `Headers`,
 * interceptor chain), with protobuf-es's public API, a JSON writer derived from each answer's
 * descriptor (`makeJsonWriter`), and the protocols' own error answers written from their
 * specifications (decision 0311). What a client sees is connect-node's answer: same status,
 * headers, body and trailers (test/connectUnaryShortcut.test.ts compares the two on one suite of
 * calls per protocol).
 *
 * Taken, to a path without a query, without a timeout:
 * - Connect: a POST over HTTP/1.1 of `application/json` or `application/proto`, its length
 *   declared and within the limit, not compressed (its answer may be);
 * - gRPC: a POST over HTTP/2 of a gRPC content type, its request not compressed (`grpc-encoding`
 *   absent or `identity`; its answer may be). Its body is read here; one that is not one plain
 *   message is handed to connect-node with the bytes read (`handOver`).
 * It answers false for anything else, without touching the request, for connect-node to serve.
 */
export const makeConnectUnaryShortcut = (
  run: EdgeRunner<TaskService | AuthService>,
  options: ConnectUnaryShortcutOptions
) => {
  const byPath = new Map(routes.map((route) => [`/${route.method.parent.typeName}/${route.method.name}`, route]))
  // As connect's JSON serialization: unknown fields are ignored unless the options say otherwise.
  const readOptions = { ignoreUnknownFields: true, ...options.jsonOptions }
  const { textDecoder } = options.jsonOptions

  const parse = (method: DescMethodUnary, binary: boolean, bytes: Uint8Array) => {
    // The messages and codes of connect's own serialization (patched: invalid_argument for binary).
    if (binary) {
      try {
        return fromBinary(method.input, bytes)
      } catch (cause) {
        throw new ConnectError(
          `parse binary: ${cause instanceof Error ? cause.message : String(cause)}`,
          Code.InvalidArgument
        )
      }
    }
    try {
      return fromJsonString(method.input, textDecoder.decode(bytes), readOptions)
    } catch (cause) {
      throw ConnectError.from(cause, Code.InvalidArgument)
    }
  }

  const jsonWriters = new Map<DescMessage, JsonWriter>(
    routes.map((route) => [route.method.output, makeJsonWriter(route.method.output, options.jsonOptions)])
  )
  const serialize = (method: DescMethodUnary, binary: boolean, output: object): Uint8Array =>
    binary
      ? toBinary(method.output, create(method.output, output as MessageInitShape<DescMessage>))
      : Buffer.from(jsonWriters.get(method.output)!(output))

  /**
   * The answer's compression, as the Connect protocol negotiates it: the first name in the
   * client's `Accept-Encoding` that the server supports; none without the header.
   */
  const answerCompression = (accepted: string | undefined): Compression | undefined =>
    accepted
      ?.split(",")
      .map((name) => options.acceptCompression.find((compression) => compression.name === name.trim()))
      .find((compression) => compression !== undefined)

  const answerConnect = async (route: ShortcutRoute, request: NodeRequest, response: NodeResponse, binary: boolean) => {
    const gone = goneSignal(response)
    const headers = request.headers
    let status = 200
    let contentType = binary ? "application/proto" : "application/json"
    let body: Uint8Array
    try {
      const input = parse(route.method, binary, await readBody(request, Number(headers["content-length"])))
      body = serialize(route.method, binary, await invoke(route, input, headers, gone))
    } catch (cause) {
      // Any failure but a ConnectError is the `internal error` connect-node answers for it.
      const error = cause instanceof ConnectError
        ? cause
        : new ConnectError("internal error", Code.Internal, undefined, undefined, cause)
      ;({ body, status } = connectErrorAnswer(error.code, error.rawMessage))
      contentType = "application/json"
    }
    const compression = answerCompression(headers["accept-encoding"])
    const compress = compression !== undefined && body.byteLength >= options.compressMinBytes
    if (compress) body = await compression.compress(body)
    if (gone.aborted) return
    ;(response as ServerResponse).writeHead(status, {
      "content-type": contentType,
      ...(compress ? { "content-encoding": compression.name } : {}),
      "content-length": String(body.byteLength)
    })
    response.end(body)
  }

  /** The call's operation as its route runs it; rejects with a ConnectError. */
  const invoke = (route: ShortcutRoute, input: unknown, headers: NodeRequest["headers"], signal: AbortSignal) =>
    run(route.invoke(input as never, headers.authorization ?? null, requestIdOf(headers)), {
      signal,
      method: route.method,
      requestHeader: {
        get: (name: string) => {
          const value = headers[name]
          return typeof value === "string" ? value : null
        }
      }
    })

  /**
   * A gRPC unary call, answered as connect-node's gRPC handler answers it: HTTP 200, the content
   * type naming the codec (`application/grpc+proto` or `+json`), `grpc-encoding` when the client
   * accepts a compression the server has (chosen before the call, so an error's answer has it
   * too); the answer's message, compressed from `compressMinBytes` on; then the trailers
   * `grpc-status` and, for an error, `grpc-message`.
   */
  const answerGrpc = async (route: ShortcutRoute, request: NodeRequest, response: NodeResponse, binary: boolean) => {
    const read = await readGrpcBody(request, options.readMaxBytes)
    if (read.kind === "gone") return
    if (read.kind === "other") return options.handOver(request, response, read.body)
    const gone = goneSignal(response)
    const headers = request.headers
    const trailers: Record<string, string> = { "grpc-status": "0" }
    let body: Uint8Array | undefined
    try {
      body = serialize(
        route.method,
        binary,
        await invoke(route, parse(route.method, binary, read.message), headers, gone)
      )
    } catch (cause) {
      const error = cause instanceof ConnectError
        ? cause
        : new ConnectError("internal error", Code.Internal, undefined, undefined, cause)
      trailers["grpc-status"] = String(error.code)
      trailers["grpc-message"] = grpcStatusMessage(error.rawMessage)
    }
    // As connect's gRPC handler: no `grpc-accept-encoding` (or an empty one), no compression.
    const accepted = headers["grpc-accept-encoding"]
    const compression = answerCompression(Array.isArray(accepted) ? accepted.join(", ") : accepted || undefined)
    let flags = 0
    if (body !== undefined && compression !== undefined && body.byteLength >= options.compressMinBytes) {
      body = await compression.compress(body)
      flags = 1
    }
    if (gone.aborted) return
    ;(response as Http2ServerResponse).writeHead(200, {
      "content-type": binary ? "application/grpc+proto" : "application/grpc+json",
      ...(compression !== undefined ? { "grpc-encoding": compression.name } : {})
    })
    if (body !== undefined) {
      ;(response as Http2ServerResponse).write(Buffer.concat([grpcPrefix(flags, body.byteLength), body]))
    }
    ;(response as Http2ServerResponse).addTrailers(trailers)
    response.end()
  }

  /** Answers the request and returns true, or returns false without touching it. */
  return (request: NodeRequest, response: NodeResponse): boolean => {
    if (request.method !== "POST") return false
    const route = byPath.get(request.url ?? "")
    if (route === undefined) return false
    const headers = request.headers
    if (request.httpVersionMajor === 2) {
      const grpc = grpcContentType.exec(headers["content-type"] ?? "")
      const encoding = headers["grpc-encoding"]
      if (
        grpc === null || headers["grpc-timeout"] !== undefined || (encoding !== undefined && encoding !== "identity")
      ) return false
      answerGrpc(route, request, response, grpc[1] === undefined).catch((cause: unknown) =>
        run(Effect.logError("gRPC unary call failed to answer", cause), {
          signal: new AbortController().signal,
          method: route.method
        })
      )
      return true
    }
    if (request.httpVersionMajor !== 1) return false
    const binary = unaryContentTypes.get(headers["content-type"]?.toLowerCase() ?? "")
    const length = Number(headers["content-length"] ?? NaN)
    const plain = (value: string | undefined) => value === undefined || value === "identity"
    if (
      binary === undefined || !Number.isSafeInteger(length) || length > options.readMaxBytes ||
      !plain(headers["content-encoding"]) ||
      headers["connect-timeout-ms"] !== undefined
    ) return false
    answerConnect(route, request, response, binary).catch((cause: unknown) =>
      run(Effect.logError("Connect unary call failed to answer", cause), {
        signal: new AbortController().signal,
        method: route.method
      })
    )
    return true
  }
}
