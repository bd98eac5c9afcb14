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
  toBinary,
  toJsonString
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
}

/**
 * Plain Connect unary calls of TodoService answered without connect-node's generic machinery (its
 * universal request and response, linked abort signals, web `Headers`, interceptor chain), with
 * protobuf-es's public API and the Connect protocol's error answer (`connectErrorAnswer`). What a
 * client sees is connect-node's answer: same status, headers and body
 * (test/connectUnaryShortcut.test.ts compares the two on one suite of calls).
 *
 * Only a POST over HTTP/1.1 of `application/json` or `application/proto` is taken, its length
 * declared and within the limit, not compressed (its answer may be), without a timeout, to a path
 * without a query. It answers false for anything else, without touching the request, for
 * connect-node to serve.
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

  const serialize = (method: DescMethodUnary, binary: boolean, output: object): Uint8Array => {
    const message = create(method.output, output as MessageInitShape<DescMessage>)
    return binary
      ? toBinary(method.output, message)
      : Buffer.from(toJsonString(method.output, message, options.jsonOptions))
  }

  /**
   * The answer's compression, as the Connect protocol negotiates it: the first name in the
   * client's `Accept-Encoding` that the server supports; none without the header.
   */
  const answerCompression = (accepted: string | undefined): Compression | undefined =>
    accepted
      ?.split(",")
      .map((name) => options.acceptCompression.find((compression) => compression.name === name.trim()))
      .find((compression) => compression !== undefined)

  const answer = async (route: ShortcutRoute, request: NodeRequest, response: NodeResponse, binary: boolean) => {
    const gone = goneSignal(response)
    const headers = request.headers
    let status = 200
    let contentType = binary ? "application/proto" : "application/json"
    let body: Uint8Array
    try {
      const input = parse(route.method, binary, await readBody(request, Number(headers["content-length"])))
      const output = await run(route.invoke(input as never, headers.authorization ?? null, requestIdOf(headers)), {
        signal: gone,
        method: route.method,
        requestHeader: {
          get: (name: string) => {
            const value = headers[name]
            return typeof value === "string" ? value : null
          }
        }
      })
      body = serialize(route.method, binary, output)
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

  /** Answers the request and returns true, or returns false without touching it. */
  return (request: NodeRequest, response: NodeResponse): boolean => {
    if (request.method !== "POST" || request.httpVersionMajor !== 1) return false
    const route = byPath.get(request.url ?? "")
    if (route === undefined) return false
    const headers = request.headers
    const binary = unaryContentTypes.get(headers["content-type"]?.toLowerCase() ?? "")
    const length = Number(headers["content-length"] ?? NaN)
    const plain = (value: string | undefined) => value === undefined || value === "identity"
    if (
      binary === undefined || !Number.isSafeInteger(length) || length > options.readMaxBytes ||
      !plain(headers["content-encoding"]) ||
      headers["connect-timeout-ms"] !== undefined
    ) return false
    answer(route, request, response, binary).catch((cause: unknown) =>
      run(Effect.logError("Connect unary call failed to answer", cause), {
        signal: new AbortController().signal,
        method: route.method
      })
    )
    return true
  }
}
