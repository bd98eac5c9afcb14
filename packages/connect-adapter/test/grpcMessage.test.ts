import { Code, ConnectError, createClient } from "@connectrpc/connect"
import { connectNodeAdapter, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node"
import * as grpc from "@grpc/grpc-js"
import http2 from "node:http2"
import { describe, expect, it } from "vitest"
import { TodoService } from "@club/contract/todo"
import { answerUnknownMethods } from "../src/shared/unknownMethods.ts"
import { serveForFile } from "./fixtures/serveTodo.ts"

/**
 * The `grpc-message` of a gRPC or gRPC-Web error, as connect-es writes it (patched: see
 * patches/@connectrpc__connect@2.2.0.patch). The gRPC HTTP/2 protocol percent-encodes only the
 * UTF-8 bytes outside 0x20-0x7E and "%" itself; connect-es 2.2 used encodeURIComponent, so a
 * client that decodes with decodeURI (grpc-js) showed "title%3A must be ...".
 */
const messages = {
  "title: must be a non-blank string": "title: must be a non-blank string",
  "Título inválido: ✓ 100% done": "T%C3%ADtulo inv%C3%A1lido: %E2%9C%93 100%25 done",
  "line\nbreak\tand \u007f": "line%0Abreak%09and %7F",
  "every printable one: !\"#$&'()*+,-./:;<=>?@[\\]^_`{|}~": "every printable one: !\"#$&'()*+,-./:;<=>?@[\\]^_`{|}~"
} as const
const sent = Object.keys(messages) as Array<keyof typeof messages>

// A service whose CreateTask fails with the title it is given as the message.
const servers = serveForFile(() =>
  connectNodeAdapter({
    routes: (router) =>
      router.service(TodoService, {
        createTask: (request) => {
          throw new ConnectError(request.title, Code.InvalidArgument)
        }
      })
  })
)

// Our own `unimplemented` answer, for every call it is given.
const unknownMethods = serveForFile(() =>
  answerUnknownMethods([], () => {
    throw new Error("every gRPC call is answered")
  })
)

/** The raw `grpc-message` trailer of a gRPC call over HTTP/2: CreateTask with this title, or a call of `path`. */
const rawGrpcMessage = (title: string, path = "/todo.TodoService/CreateTask", url = servers().http2Url) =>
  new Promise<string | undefined>((resolve, reject) => {
    const session = http2.connect(url)
    session.on("error", reject)
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers"
    })
    const body = Buffer.from(title, "utf8")
    // CreateTaskRequest { title = 1 }, in one uncompressed envelope (short titles only).
    const message = Buffer.concat([Buffer.from([0x0a, body.length]), body])
    const envelope = Buffer.alloc(5)
    envelope.writeUInt32BE(message.length, 1)
    stream.end(Buffer.concat([envelope, message]))
    let value: string | undefined
    stream.on("response", (headers) => (value ??= headers["grpc-message"] as string | undefined))
    stream.on("trailers", (trailers) => (value ??= trailers["grpc-message"] as string | undefined))
    stream.resume()
    stream.on("close", () => {
      session.close()
      resolve(value)
    })
  })

describe("grpc-message is percent-encoded as the gRPC protocol says", () => {
  for (const message of sent) {
    it(`on the wire: ${JSON.stringify(message)}`, async () => {
      expect(await rawGrpcMessage(message)).toBe(messages[message])
    })
  }

  it("our own unimplemented answer encodes its message as connect-es does", async () => {
    for (const path of ["/foo.Bar/Baz", "/foo.Bar/100%25:done", "/foo.Bar/!$&'()*+,;=@~"]) {
      const ours = await rawGrpcMessage("", path, unknownMethods().http2Url)
      expect(ours, path).toBe(await rawGrpcMessage(`unknown method ${path}`))
      expect(decodeURIComponent(ours!)).toBe(`unknown method ${path}`)
    }
  })

  it("@grpc/grpc-js shows every message as it was thrown, the printable ones unencoded", async () => {
    const Client = grpc.makeGenericClientConstructor({
      CreateTask: {
        path: "/todo.TodoService/CreateTask",
        requestStream: false,
        responseStream: false,
        requestSerialize: (title: string) => {
          const body = Buffer.from(title, "utf8")
          return Buffer.concat([Buffer.from([0x0a, body.length]), body])
        },
        requestDeserialize: (bytes: Buffer) => bytes.toString(),
        responseSerialize: (value: Buffer) => value,
        responseDeserialize: (bytes: Buffer) => bytes
      }
    }, "TodoService")
    const client = new Client(new URL(servers().http2Url).host, grpc.credentials.createInsecure())
    try {
      for (const message of sent) {
        const error = await new Promise<grpc.ServiceError>((resolve) =>
          (client as unknown as Record<string, Function>)["CreateTask"]!(message, (e: grpc.ServiceError) => resolve(e))
        )
        expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: message })
      }
    } finally {
      client.close()
    }
  })

  for (
    const [name, transport] of [
      ["gRPC", () => createGrpcTransport({ baseUrl: servers().http2Url })],
      ["gRPC-Web", () => createGrpcWebTransport({ baseUrl: servers().http1Url, httpVersion: "1.1" })]
    ] as const
  ) {
    it(`a connect-es client over ${name} reads every message back`, async () => {
      const client = createClient(TodoService, transport())
      for (const message of sent) {
        await expect(client.createTask({ title: message })).rejects.toMatchObject({
          code: Code.InvalidArgument,
          rawMessage: message
        })
      }
    })
  }
})
