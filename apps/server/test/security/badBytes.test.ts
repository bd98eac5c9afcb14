import { CreateTaskRequestSchema } from "@club/contract/todo"
import { create, toBinary } from "@bufbuild/protobuf"
import * as Http2 from "node:http2"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callConnect, callGrpcWeb, envelope, grpcSession } from "../reliability/support/rpcWire.ts"
import { rawClient, type RawClient } from "../reliability/support/rawHttp.ts"
import { type ServerProcess, startServer } from "@club/test-support"

const adminPassword = "bad-bytes-admin-password"

let server: ServerProcess
let client: RawClient
let auth: Record<string, string>
beforeAll(async () => {
  server = await startServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: adminPassword })
  client = rawClient(server.port)
  const login = await client.send({
    method: "POST",
    path: "/auth/login",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "admin", password: adminPassword })
  })
  auth = { authorization: `Bearer ${(JSON.parse(login.text) as { token: string }).token}` }
}, 120_000)
afterAll(async () => {
  client?.close()
  await server?.stop()
})

/** Bytes that are not a protobuf message (a field with wire type 7, which does not exist). */
const notProtobuf = Buffer.from([0xff, 0xff, 0xff, 0xff])
/** `title` as protobuf field 1 holding two bytes that are not UTF-8. */
const titleNotUtf8 = Buffer.from([0x0a, 0x02, 0xc3, 0x28])
/** A JSON body whose string is not UTF-8: `{"title":"<ff>"}`. */
const jsonNotUtf8 = Buffer.concat([Buffer.from("{\"title\":\""), Buffer.from([0xff, 0xfe]), Buffer.from("\"}")])

const taskTitles = async () => {
  const answer = await client.send({
    method: "POST",
    path: "/todo.TodoService/ListTasks",
    headers: { ...auth, "content-type": "application/json" },
    body: "{}"
  })
  return (JSON.parse(answer.text) as { tasks: Array<{ title: string }> }).tasks.map((task) => task.title)
}

describe("bytes that are not the message are bad input, on every protocol", () => {
  it("Connect binary: invalid_argument (HTTP 400), not internal", async () => {
    for (const body of [notProtobuf, titleNotUtf8]) {
      const answer = await callConnect(client, "CreateTask", body, "application/proto", auth)
      expect(answer.code).toBe("invalid_argument")
    }
    const status = await client.send({
      method: "POST",
      path: "/todo.TodoService/CreateTask",
      headers: { ...auth, "content-type": "application/proto" },
      body: notProtobuf
    })
    expect(status.status).toBe(400)
  })

  it("gRPC over HTTP/2 and gRPC-Web: status 3 (invalid_argument), not 13", async () => {
    const h2 = grpcSession(server.port)
    try {
      for (const body of [notProtobuf, titleNotUtf8]) {
        expect((await h2.call("CreateTask", envelope(body), auth)).code).toBe("invalid_argument")
        expect((await callGrpcWeb(client, "CreateTask", envelope(body), auth)).code).toBe("invalid_argument")
      }
      expect(h2.failures).toEqual([])
    } finally {
      h2.close()
    }
  })

  it("JSON that is not UTF-8: invalid_argument on Connect, the endpoint's bad input on REST; nothing stored", async () => {
    expect((await callConnect(client, "CreateTask", jsonNotUtf8, "application/json", auth)).code).toBe(
      "invalid_argument"
    )
    expect(await taskTitles()).toEqual([])

    const coach = await client.send({
      method: "POST",
      path: "/coaches/create",
      headers: { ...auth, "content-type": "application/json" },
      body: Buffer.concat([Buffer.from("{\"name\":\"Ren"), Buffer.from([0xe9]), Buffer.from("e\"}")])
    })
    expect(coach.status).toBe(400)
    expect(coach.contentType).toBe("application/problem+json")
    expect(JSON.parse(coach.text)).toMatchObject({
      title: "Bad Request",
      detail: "body: Expected JSON text in UTF-8, got bytes that are not UTF-8",
      errors: [{ field: "body", message: "Expected JSON text in UTF-8, got bytes that are not UTF-8" }]
    })
    const coaches = await client.send({ method: "GET", path: "/coaches/all", headers: auth })
    expect(JSON.parse(coaches.text)).toEqual([])
    // The same text in UTF-8 is stored as sent.
    const renee = await client.send({
      method: "POST",
      path: "/coaches/create",
      headers: { ...auth, "content-type": "application/json" },
      body: Buffer.from("{\"name\":\"Renée\"}", "utf8")
    })
    expect(JSON.parse(renee.text)).toMatchObject({ name: "Renée" })
    // A valid message still works on every protocol.
    const valid = Buffer.from(
      toBinary(CreateTaskRequestSchema, create(CreateTaskRequestSchema, { title: "Été", description: "" }))
    )
    expect((await callConnect(client, "CreateTask", valid, "application/proto", auth)).code).toBe("ok")
    expect(await taskTitles()).toEqual(["Été"])
  })
})

describe("an unknown method, asked the gRPC way, is unimplemented the gRPC way", () => {
  /** The status line and grpc-status of a call over HTTP/2 (trailers-only answers carry it in the headers). */
  const grpcCall = (path: string, contentType = "application/grpc") =>
    new Promise<{ status: number; grpcStatus: string | undefined; grpcMessage: string | undefined }>(
      (resolve, reject) => {
        const session = Http2.connect(`http://127.0.0.1:${server.port}`)
        session.on("error", reject)
        const stream = session.request({
          ":method": "POST",
          ":path": path,
          "content-type": contentType,
          te: "trailers",
          ...auth
        })
        let headers: Http2.IncomingHttpHeaders = {}
        stream.on("response", (received) => (headers = received))
        stream.on("trailers", (received) => (headers = { ...headers, ...received }))
        stream.on("close", () => {
          session.close()
          resolve({
            status: Number(headers[":status"]),
            grpcStatus: headers["grpc-status"] as string | undefined,
            grpcMessage: headers["grpc-message"] as string | undefined
          })
        })
        stream.on("error", reject)
        stream.resume()
        stream.end(envelope(Buffer.alloc(0)))
      }
    )

  it("over HTTP/2: HTTP 200 with grpc-status 12, for an unknown method of a served service and an unknown service", async () => {
    for (const path of ["/todo.TodoService/Nope", "/grpc.health.v1.Health/Nope", "/foo.Bar/Baz"]) {
      const answer = await grpcCall(path)
      expect(answer, path).toMatchObject({ status: 200, grpcStatus: "12" })
      expect(decodeURIComponent(answer.grpcMessage ?? "")).toBe(`unknown method ${path}`)
    }
    expect(await grpcCall("/todo.TodoService/ListTasks")).toMatchObject({ status: 200, grpcStatus: "0" })
  })

  it("over gRPC-Web: grpc-status 12 in the headers", async () => {
    const answer = await client.send({
      method: "POST",
      path: "/todo.TodoService/Nope",
      headers: { ...auth, "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: envelope(Buffer.alloc(0))
    })
    expect(answer.status).toBe(200)
    expect(answer.headers["grpc-status"]).toBe("12")
  })

  it("over Connect: the Connect error unimplemented, for an unknown method of TodoService", async () => {
    for (const contentType of ["application/json", "application/proto"]) {
      expect(await callConnect(client, "Nope", Buffer.from("{}"), contentType, auth)).toMatchObject({
        code: "unimplemented",
        message: "unknown method /todo.TodoService/Nope"
      })
    }
  })

  it("an unknown service asked as REST is an unknown path's 404 problem", async () => {
    const answer = await client.send({
      method: "POST",
      path: "/foo.Bar/Baz",
      headers: { "content-type": "application/json" },
      body: "{}"
    })
    expect(answer.status).toBe(404)
    expect(answer.contentType).toBe("application/problem+json")
  })
})

describe("a client that goes away in the middle of its request", () => {
  it("is not a server error: no ERROR line, over HTTP/2 (REST, Connect, gRPC) and HTTP/1.1, and the server serves on", async () => {
    const session = Http2.connect(`http://127.0.0.1:${server.port}`)
    session.on("error", () => undefined)
    const cut = [
      ["/coaches/create", "application/json", Buffer.from("{\"name\":")],
      ["/todo.TodoService/CreateTask", "application/json", Buffer.from("{\"title\":")],
      ["/todo.TodoService/CreateTask", "application/grpc", Buffer.from([0, 0, 0, 0, 95, 10])]
    ] as const
    await Promise.all(cut.map(([path, contentType, part]) =>
      new Promise<void>((resolve) => {
        const stream = session.request(
          { ":method": "POST", ":path": path, "content-type": contentType, "content-length": "100", ...auth },
          { endStream: false }
        )
        stream.on("error", () => undefined)
        stream.on("close", () => resolve())
        stream.write(part)
        setTimeout(() => stream.close(Http2.constants.NGHTTP2_CANCEL), 200)
      })
    ))
    session.close()
    const { connect } = await import("node:net")
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, "127.0.0.1", () => {
        socket.write(
          `POST /coaches/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nAuthorization: ${
            auth["authorization"]
          }\r\n\r\n{"name":`
        )
        setTimeout(() => socket.destroy(), 200)
      })
      socket.on("error", () => undefined)
      socket.on("close", () => resolve())
    })
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(server.logs().filter((line) => line.level === "ERROR")).toEqual([])
    expect((await client.send({ method: "GET", path: "/coaches/all", headers: auth })).status).toBe(200)
  })
})
