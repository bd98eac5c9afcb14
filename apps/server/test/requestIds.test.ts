import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { grpcEmptyCall, sleep } from "./support/requests.ts"
import { type LogLine, messageOf, type ServerProcess, startServer } from "@club/test-support"
import { startTcpProxy, type TcpProxy } from "./support/TcpProxy.ts"

const adminPassword = "request-ids-admin-password"
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u

const login = async (port: number) => {
  const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "admin", password: adminPassword })
  })
  return ((await response.json()) as { token: string }).token
}

interface Answer {
  readonly status: number
  readonly requestId: string | null
  readonly contentType: string | null
  readonly text: string
}

const send = async (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string
): Promise<Answer> => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body })
  })
  return {
    status: response.status,
    requestId: response.headers.get("x-request-id"),
    contentType: response.headers.get("content-type"),
    text: await response.text()
  }
}

/** Every log line the server wrote with `requestId` set to `id`. */
const linesOf = (server: ServerProcess, id: string): Array<LogLine> =>
  server.logs().filter((line) => line.annotations?.["requestId"] === id)

describe("X-Request-Id: on every answer, in problems and in the log lines of the request", { timeout: 120_000 }, () => {
  let server: ServerProcess
  let token: string
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: adminPassword, LOG_LEVEL: "debug" })
    token = await login(server.port)
  }, 120_000)
  afterAll(() => server?.stop())

  it("a sane id (1 to 128 of A-Z a-z 0-9 . _ : -) is echoed as sent", async () => {
    for (const id of ["a", "trace-42", "01J9Z3.x_y:z-Q", "x".repeat(128)]) {
      expect((await send(server.port, "GET", "/health/live", { "x-request-id": id })).requestId).toBe(id)
    }
  })

  it("an insane one (too long, spaces, quotes, other characters, two of them) is replaced by a generated UUID", async () => {
    const sent = ["x".repeat(129), "has space", "quote\"d", "semi;colon", "naïve", "a/b", "{json}", "a,b"]
    const seen = new Set<string>()
    for (const id of sent) {
      const answer = await send(server.port, "GET", "/health/live", { "x-request-id": id })
      expect(answer.requestId, id).toMatch(uuid)
      seen.add(answer.requestId!)
    }
    expect(seen.size).toBe(sent.length)
    const twice = await fetch(`http://127.0.0.1:${server.port}/health/live`, {
      headers: [["x-request-id", "first"], ["x-request-id", "second"]]
    })
    expect(twice.headers.get("x-request-id")).toMatch(uuid)
    const none = await send(server.port, "GET", "/health/live")
    expect(none.requestId).toMatch(uuid)
    expect((await send(server.port, "GET", "/health/live", { "x-request-id": "" })).requestId).toMatch(uuid)
  })

  it("every answer carries one: REST successes and problems, 404 and 405, the documents, Connect, gRPC-Web and gRPC", async () => {
    const auth = { authorization: `Bearer ${token}` }
    const json = { ...auth, "content-type": "application/json" }
    const answers: Array<readonly [string, Answer]> = [
      ["GET /auth/me", await send(server.port, "GET", "/auth/me", auth)],
      ["GET /auth/me without a token", await send(server.port, "GET", "/auth/me")],
      ["GET /users/999999", await send(server.port, "GET", "/users/999999", auth)],
      ["GET /session/07", await send(server.port, "GET", "/session/07", auth)],
      ["POST /users/create bad body", await send(server.port, "POST", "/users/create", json, "{\"name\":")],
      ["GET /nothing/here/at/all", await send(server.port, "GET", "/nothing/here/at/all", auth)],
      ["PATCH /session/1", await send(server.port, "PATCH", "/session/1", auth)],
      ["GET /openapi.json", await send(server.port, "GET", "/openapi.json")],
      ["GET /docs", await send(server.port, "GET", "/docs")],
      ["Connect ListTasks", await send(server.port, "POST", "/todo.TodoService/ListTasks", json, "{}")],
      [
        "Connect CreateTask blank",
        await send(server.port, "POST", "/todo.TodoService/CreateTask", json, "{\"title\":\" \"}")
      ],
      ["Connect unknown method", await send(server.port, "POST", "/todo.TodoService/Nope", json, "{}")],
      [
        "gRPC-Web ListTasks",
        await send(server.port, "POST", "/todo.TodoService/ListTasks", {
          ...auth,
          "content-type": "application/grpc-web+proto",
          "x-grpc-web": "1"
        }, "\u0000\u0000\u0000\u0000\u0000")
      ]
    ]
    for (const [what, answer] of answers) {
      expect(answer.requestId, what).toMatch(uuid)
      if (answer.contentType === "application/problem+json") {
        expect(JSON.parse(answer.text), what).toMatchObject({ requestId: answer.requestId })
      }
    }
    expect(answers.filter(([, answer]) => answer.contentType === "application/problem+json").map(([what]) => what))
      .toEqual([
        "GET /auth/me without a token",
        "GET /users/999999",
        "GET /session/07",
        "POST /users/create bad body",
        "GET /nothing/here/at/all",
        "PATCH /session/1"
      ])
    const call = await grpcEmptyCall(server.port, "/todo.TodoService/ListTasks", {
      ...auth,
      "x-request-id": "grpc-call-1"
    })
    expect(call["grpc-status"]).toBe("0")
    expect(call["x-request-id"]).toBe("grpc-call-1")
    const refused = await grpcEmptyCall(server.port, "/todo.TodoService/ListTasks", {})
    expect(refused["grpc-status"]).toBe("16")
    expect(refused["x-request-id"]).toMatch(uuid)
  })

  it("a problem's requestId is the id sent, when sane", async () => {
    const answer = await send(server.port, "GET", "/users/999999", {
      authorization: `Bearer ${token}`,
      "x-request-id": "client-chosen-7"
    })
    expect(answer.requestId).toBe("client-chosen-7")
    expect(JSON.parse(answer.text)).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "User not found",
      instance: "/users/999999",
      requestId: "client-chosen-7"
    })
  })

  it("the log lines of a failing request carry its id (debug level: the request logger's too)", async () => {
    const id = `failing-${Date.now()}`
    const answer = await send(server.port, "POST", "/users/create", {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "x-request-id": id
    }, "{\"name\": 5}")
    expect(answer.status).toBe(400)
    await sleep(200)
    const lines = linesOf(server, id)
    expect(lines.length).toBeGreaterThan(0)
    expect(
      lines.some((line) => line.annotations["http.url"] === "/users/create" && line.annotations["http.status"] === 400)
    ).toBe(true)
    // Each line about that request names it.
    const aboutIt = server.logs().filter((line) =>
      line.annotations?.["http.url"] === "/users/create" && line.annotations["http.status"] === 400
    )
    expect(aboutIt.every((line) => typeof line.annotations["requestId"] === "string")).toBe(true)
  })
})

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

describe.skipIf(database === undefined)(
  "request ids in the log lines of the REST and Connect handlers (PostgreSQL behind a proxy, cut)",
  {
    timeout: 120_000
  },
  () => {
    let proxy: TcpProxy
    let server: ServerProcess
    let token: string
    beforeAll(async () => {
      proxy = await startTcpProxy(database!.server)
      server = await startServer({
        DATABASE_URL: database!.urlVia("127.0.0.1", proxy.port),
        ADMIN_PASSWORD: adminPassword,
        JWT_SECRET: "request-ids-secret-long-enough-0123456789",
        LOG_LEVEL: "debug"
      })
      token = await login(server.port)
    }, 120_000)
    afterAll(async () => {
      await server?.stop()
      await proxy?.stop()
    })

    it("while the database is unreachable, the debug line each handler logs names the request it failed", async () => {
      await proxy.stop()
      // Past the credentials cache's lifetime, so that every call needs the database.
      await sleep(1_500)
      const auth = { authorization: `Bearer ${token}` }
      const rest = await send(server.port, "GET", "/session/all", { ...auth, "x-request-id": "outage-rest-1" })
      expect(rest.status).toBe(503)
      expect(JSON.parse(rest.text)).toMatchObject({ status: 503, requestId: "outage-rest-1" })
      // Connect JSON over HTTP/1.1 and gRPC: connect-node's routes with the auth interceptor.
      const connect = await send(server.port, "POST", "/todo.TodoService/ListTasks", {
        ...auth,
        "content-type": "application/json",
        "x-request-id": "outage-connect-1"
      }, "{}")
      expect(JSON.parse(connect.text)).toMatchObject({ code: "unavailable" })
      expect(connect.requestId).toBe("outage-connect-1")
      const call = await grpcEmptyCall(server.port, "/todo.TodoService/ListTasks", {
        ...auth,
        "x-request-id": "outage-grpc-1"
      })
      expect(call["grpc-status"]).toBe("14")
      expect(call["x-request-id"]).toBe("outage-grpc-1")
      await sleep(200)

      const logged = (id: string, message: string) =>
        linesOf(server, id).some((line) => messageOf(line).startsWith(message))
      expect(logged("outage-rest-1", "Answered 503: the database is unreachable")).toBe(true)
      expect(logged("outage-connect-1", "TodoService call answered unavailable: the database is unreachable")).toBe(
        true
      )
      expect(logged("outage-grpc-1", "TodoService call answered unavailable: the database is unreachable")).toBe(true)
      expect(linesOf(server, "outage-grpc-1")[0]?.annotations["rpc"]).toBe("ListTasks")
      await proxy.restart()
    })
  }
)
