import { CreateTaskRequestSchema, ListTasksRequestSchema } from "@club/contract/todo"
import { create, toBinary, toJsonString } from "@bufbuild/protobuf"
import * as Http2 from "node:http2"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ServerProcess } from "@club/test-support"
import { deploy, type Deployment } from "./support/Deployment.ts"
import { type Principals, setUpPrincipals, urlOf } from "./support/principals.ts"
import { rawClient, type RawClient, type RawReply } from "./support/rawHttp.ts"
import { recordResult } from "./support/results.ts"
import { callConnect, callGrpcWeb, envelope, grpcSession } from "./support/rpcWire.ts"

const oneMiB = 1024 * 1024

/** CONTRACT.md "Limits": each refused with a clear error, and the server unaffected. */
describe("Limits (embedded database)", () => {
  let deployment: Deployment
  let server: ServerProcess
  let principals: Principals
  let client: RawClient
  const refusals: Record<string, string> = {}

  const json = (method: string, path: string, body: string, token: string | null = principals.token.ADMIN) =>
    client.send({
      method,
      path,
      headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      body,
      ownConnection: body.length > oneMiB
    })
  const problem = (reply: RawReply) => {
    expect(reply.contentType, reply.text.slice(0, 200)).toBe("application/problem+json")
    return JSON.parse(reply.text) as {
      status: number
      title: string
      detail: string
      errors?: Array<{ field: string }>
    }
  }
  const note = (limit: string, reply: RawReply) => {
    refusals[limit] = `${reply.status} ${reply.text.slice(0, 160)}`
  }

  beforeAll(async () => {
    deployment = await deploy("embedded")
    server = await deployment.start()
    principals = await setUpPrincipals(urlOf(server.port))
    client = rawClient(server.port)
  })
  afterAll(async () => {
    client?.close()
    recordResult("limits", refusals)
    await deployment?.release()
  })

  it("a REST body over 1 MiB: 413 problem+json saying so; a body of exactly 1 MiB is read (and refused for what it holds)", async () => {
    const atLimit = JSON.stringify({ name: "x".repeat(oneMiB - 11) })
    expect(Buffer.byteLength(atLimit)).toBe(oneMiB)
    const read = await json("POST", "/coaches/create", atLimit)
    expect(read.status).toBe(400)
    expect(problem(read).detail).toMatch(/^name: /u)
    const over = await json("POST", "/coaches/create", JSON.stringify({ name: "x".repeat(oneMiB) }))
    expect(over.status).toBe(413)
    expect(problem(over)).toMatchObject({ title: "Content Too Large", detail: "The request body is larger than 1 MiB" })
    note("REST body over 1 MiB", over)
  })

  it("a TodoService message over 1 MiB: resource_exhausted, on Connect (binary and JSON), gRPC-Web and gRPC", async () => {
    const auth = { authorization: `Bearer ${principals.token.ADMIN}` }
    const message = create(CreateTaskRequestSchema, { title: "t", description: "d".repeat(oneMiB) })
    const binary = Buffer.from(toBinary(CreateTaskRequestSchema, message))
    const answers = {
      "Connect binary": await callConnect(client, "CreateTask", binary, "application/proto", auth),
      "Connect JSON": await callConnect(
        client,
        "CreateTask",
        toJsonString(CreateTaskRequestSchema, message),
        "application/json",
        auth
      ),
      "gRPC-Web": await callGrpcWeb(client, "CreateTask", envelope(binary), auth)
    }
    const session = grpcSession(server.port)
    const grpc = await session.call("CreateTask", envelope(binary), auth)
    session.close()
    for (const [protocol, answer] of Object.entries({ ...answers, gRPC: grpc })) {
      expect(answer.code, protocol).toBe("resource_exhausted")
      expect(answer.message, protocol).toMatch(/larger than configured readMaxBytes 1048576/u)
    }
    refusals["TodoService message over 1 MiB"] = `${grpc.code}: ${grpc.message}`
  })

  it("request headers over 16 KiB (one large header, many headers, or a long URL): 431 on HTTP/1.1, and the server answers the next request", async () => {
    const cases = {
      "one 20 KiB header": { "x-large": "a".repeat(20 * 1024) },
      "3,000 headers": Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`x-header-${i}`, "v"]))
    }
    for (const [kind, headers] of Object.entries(cases)) {
      const reply = await client.send({ method: "GET", path: "/health/live", headers, ownConnection: true })
      expect(reply.status, kind).toBe(431)
      note(`HTTP/1.1 headers: ${kind}`, reply)
    }
    const longUrl = await client.send({
      method: "GET",
      path: `/activite/theme/${"a".repeat(20 * 1024)}`,
      ownConnection: true
    })
    expect(longUrl.status).toBe(431)
    note("HTTP/1.1 URL of 20 KiB", longUrl)
    expect((await client.send({ method: "GET", path: "/health/live" })).status).toBe(200)
  })

  it("an HTTP/2 header block over the limit is refused on its stream or session, and the server answers a new one", async () => {
    const refused = await new Promise<string>((resolve) => {
      const session = Http2.connect(`http://127.0.0.1:${server.port}`)
      session.on("error", (error) => resolve(`session error ${error.message}`))
      const stream = session.request({ ":path": "/health/live", "x-large": "a".repeat(100 * 1024) })
      stream.on("response", (headers) => resolve(`status ${headers[":status"]}`))
      stream.on("error", (error) => resolve(`stream error ${error.message}`))
      stream.on("close", () => {
        resolve(`closed with code ${stream.rstCode}`)
        session.close()
      })
      stream.end()
    })
    expect(refused).not.toBe("status 200")
    refusals["HTTP/2 header block of 100 KiB"] = refused
    const session = grpcSession(server.port)
    const answer = await session.call(
      "ListTasks",
      envelope(Buffer.from(toBinary(ListTasksRequestSchema, create(ListTasksRequestSchema, {})))),
      {
        authorization: `Bearer ${principals.token.ADMIN}`
      }
    )
    session.close()
    expect(answer.code).toBe("ok")
  })

  it("names and short texts over 200 characters, free text over 10,000, lists over 10,000 items: 400 naming the field", async () => {
    expect((await json("POST", "/coaches/create", JSON.stringify({ name: "n".repeat(200) }))).status).toBe(201)
    const name = await json("POST", "/coaches/create", JSON.stringify({ name: "n".repeat(201) }))
    expect(name.status).toBe(400)
    expect(problem(name)).toMatchObject({ detail: "name: Expected a value with a length of at most 200" })
    note("name of 201 characters", name)

    const session = await json("POST", "/session/create", JSON.stringify({ name: "Limits" }), principals.token.COACH)
    const id = (JSON.parse(session.text) as { id: number }).id
    const list = await json(
      "PUT",
      `/session/update/${id}`,
      JSON.stringify({ athleteIds: Array.from({ length: 10_001 }, (_, i) => i + 1) }),
      principals.token.COACH
    )
    expect(list.status).toBe(400)
    expect(problem(list).errors?.map((error) => error.field)).toEqual(["athleteIds"])
    expect(problem(list).detail).toMatch(/^athleteIds: .*at most 10000/u)
    note("athleteIds of 10,001 items", list)
    // 10,000 is within the limit: refused only because those athletes do not exist.
    const within = await json(
      "PUT",
      `/session/update/${id}`,
      JSON.stringify({ athleteIds: Array.from({ length: 10_000 }, (_, i) => i + 1) }),
      principals.token.COACH
    )
    expect(within.status).toBe(400)
    expect(problem(within).detail).toMatch(/^athleteIds: no athlete with id /u)

    const auth = { authorization: `Bearer ${principals.token.ADMIN}` }
    const description = await callConnect(
      client,
      "CreateTask",
      JSON.stringify({ title: "t", description: "d".repeat(10_001) }),
      "application/json",
      auth
    )
    expect(description).toMatchObject({ code: "invalid_argument", message: "description: at most 10000 characters" })
    refusals["task description of 10,001 characters"] = `${description.code}: ${description.message}`
  })

  it("a path parameter holding a character whose lowercase is longer (İ): 400 naming the parameter, not a bare 404; paths match as the seed spells them", async () => {
    const get = (path: string, token = principals.token.ADMIN) =>
      client.send({ method: "GET", path, headers: { authorization: `Bearer ${token}` } })
    const cases: Array<readonly [string, string, string?]> = [
      ["/athletes/athlete/%C4%B0/session", "id"],
      ["/athletes/athletes/%C4%B0/session/after/2026-01-01", "id"],
      ["/athletes/athletes/1/session/between/%C4%B0/2026-01-01", "startDate"],
      ["/athletes/athletes/1/session/between/2026-01-01/A%C4%B0b", "endDate"],
      ["/athletes/%C4%B0", "id"],
      // Coach or athlete only (an admin is refused before the path is decoded).
      ["/session/%C4%B0", "id", principals.token.COACH]
    ]
    for (const [path, field, token] of cases) {
      const reply = await get(path, token)
      expect(reply.status, path).toBe(400)
      expect(problem(reply).errors?.map((error) => error.field), path).toEqual([field])
      note(`path parameter İ: GET ${path}`, reply)
    }
    // docs/DECISIONS.md: matched case-sensitively, so another spelling is no route.
    expect((await get("/ATHLETES/athlete/1/session")).status).toBe(404)
    expect((await get("/athletes/athlete/1/session")).status).toBe(200)
  })

  it("a login password over 1,000 characters: 400 naming it, without hashing it", async () => {
    const reply = await json(
      "POST",
      "/auth/login",
      JSON.stringify({ name: "admin", password: "p".repeat(1_001) }),
      null
    )
    expect(reply.status).toBe(400)
    expect(problem(reply).errors?.map((error) => error.field)).toEqual(["password"])
    note("login password of 1,001 characters", reply)
  })

  it("20 failed logins from one client address, whatever the names: the next waits (429 with Retry-After: 1), even with a right password; another address is not affected", async () => {
    const from = rawClient(server.port, { localAddress: "127.0.0.21" })
    const attempt = (name: string, password: string, sender = from) =>
      sender.send({
        method: "POST",
        path: "/auth/login",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, password })
      })
    for (let i = 0; i < 20; i++) expect((await attempt(`stranger-${i}`, "wrong-password")).status).toBe(401)
    const throttled = await attempt("coach", principals.password.COACH)
    expect(throttled.status).toBe(429)
    expect(problem(throttled)).toMatchObject({
      title: "Too Many Requests",
      detail: "Too many failed attempts; retry in 1 second"
    })
    expect(throttled.headers["retry-after"]).toBe("1")
    note("21st login from one address", throttled)
    const other = rawClient(server.port, { localAddress: "127.0.0.22" })
    expect((await attempt("coach", principals.password.COACH, other)).status).toBe(200)
    from.close()
    other.close()
  })
})
