import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServerProcess, startServer } from "@club/test-support"

const adminPassword = "cors-admin-password"
const allowed = "https://club.example"
const alsoAllowed = "http://localhost:5173"

let withCors: ServerProcess
let withoutCors: ServerProcess
let token: string
beforeAll(async () => {
  ;[withCors, withoutCors] = await Promise.all([
    startServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: adminPassword, CORS_ORIGINS: `${allowed}, ${alsoAllowed}` }),
    startServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: adminPassword })
  ])
  const login = await fetch(`http://127.0.0.1:${withCors.port}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "admin", password: adminPassword })
  })
  token = ((await login.json()) as { token: string }).token
}, 180_000)
afterAll(() => Promise.all([withCors?.stop(), withoutCors?.stop()]))

const send = async (
  server: ServerProcess,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string
) => {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body })
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text }
}

/** The names in a comma-separated header, lower-cased. */
const listed = (value: string | null) =>
  (value ?? "").split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "")

const corsHeaderNames = (headers: Headers) =>
  Array.from(headers.keys()).filter((name) => name.startsWith("access-control-"))

const preflight = (server: ServerProcess, path: string, origin: string, method: string, requestHeaders: string) =>
  send(server, "OPTIONS", path, {
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": requestHeaders
  })

describe("CORS on (CORS_ORIGINS lists the web origins)", () => {
  it("a preflight from an allowed origin for a REST path is answered 204 at once, with what a page may send and read", async () => {
    const answer = await preflight(
      withCors,
      "/session/create",
      allowed,
      "POST",
      "authorization,content-type,idempotency-key,x-request-id"
    )
    expect(answer.status).toBe(204)
    expect(answer.text).toBe("")
    expect(answer.headers.get("access-control-allow-origin")).toBe(allowed)
    expect(listed(answer.headers.get("access-control-allow-methods"))).toEqual([
      "delete",
      "get",
      "head",
      "patch",
      "post",
      "put"
    ])
    expect(listed(answer.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining(["authorization", "content-type", "idempotency-key", "x-request-id", "traceparent", "b3"])
    )
    expect(listed(answer.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining([
        "retry-after",
        "x-request-id",
        "location",
        "www-authenticate",
        "allow",
        "idempotent-replayed"
      ])
    )
    expect(answer.headers.get("access-control-max-age")).toBe("7200")
    // Bearer tokens, not cookies: no credentials.
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull()
    expect(listed(answer.headers.get("vary"))).toContain("origin")
    // An answer like every other.
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/u)
    expect(answer.headers.get("cache-control")).toBe("no-store")
  })

  it("a preflight for a PATCH endpoint allows PATCH, and the PATCH itself is then answered with the CORS headers", async () => {
    const answer = await preflight(withCors, "/planning/sessions/7", allowed, "PATCH", "authorization,content-type")
    expect(answer.status).toBe(204)
    expect(answer.headers.get("access-control-allow-origin")).toBe(allowed)
    expect(listed(answer.headers.get("access-control-allow-methods"))).toContain("patch")
    const patched = await send(withCors, "PATCH", "/planning/sessions/999999", {
      origin: allowed,
      authorization: `Bearer ${token}`,
      "content-type": "application/json"
    }, "{}")
    expect(patched.headers.get("access-control-allow-origin")).toBe(allowed)
  })

  it("a preflight for a gRPC-Web call of TodoService allows the Connect and gRPC-Web headers and exposes gRPC's status", async () => {
    const answer = await preflight(
      withCors,
      "/todo.TodoService/ListTasks",
      alsoAllowed,
      "POST",
      "authorization,content-type,x-grpc-web,x-user-agent,grpc-timeout"
    )
    expect(answer.status).toBe(204)
    expect(answer.headers.get("access-control-allow-origin")).toBe(alsoAllowed)
    expect(listed(answer.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining([
        "x-grpc-web",
        "x-user-agent",
        "grpc-timeout",
        "connect-protocol-version",
        "connect-timeout-ms"
      ])
    )
    expect(listed(answer.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining(["grpc-status", "grpc-message", "grpc-status-details-bin"])
    )
  })

  it("a request from an allowed origin is answered as always, with Access-Control-Allow-Origin and the exposed headers", async () => {
    const me = await send(withCors, "GET", "/auth/me", { origin: allowed, authorization: `Bearer ${token}` })
    expect(me.status).toBe(200)
    expect(JSON.parse(me.text)).toMatchObject({ name: "admin", role: "ADMIN" })
    expect(me.headers.get("access-control-allow-origin")).toBe(allowed)
    expect(listed(me.headers.get("access-control-expose-headers"))).toContain("x-request-id")
    expect(listed(me.headers.get("vary"))).toContain("origin")

    const refused = await send(withCors, "GET", "/auth/me", { origin: allowed })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("access-control-allow-origin")).toBe(allowed)

    const rpc = await send(withCors, "POST", "/todo.TodoService/ListTasks", {
      origin: alsoAllowed,
      authorization: `Bearer ${token}`,
      "content-type": "application/grpc-web+proto",
      "x-grpc-web": "1"
    }, "\u0000\u0000\u0000\u0000\u0000")
    expect(rpc.status).toBe(200)
    expect(rpc.headers.get("grpc-status") ?? rpc.text).toMatch(/grpc-status:\s*0|^0$/u)
    expect(rpc.headers.get("access-control-allow-origin")).toBe(alsoAllowed)
  })

  it("an origin not listed gets no CORS header: its preflight meets the 405 of a path without OPTIONS", async () => {
    const answer = await preflight(withCors, "/session/create", "https://evil.example", "POST", "authorization")
    expect(answer.status).toBe(405)
    expect(answer.headers.get("allow")).toBe("POST")
    expect(answer.headers.get("content-type")).toBe("application/problem+json")
    expect(corsHeaderNames(answer.headers)).toEqual([])

    const rpcPreflight = await preflight(
      withCors,
      "/todo.TodoService/ListTasks",
      "https://club.example.evil.example",
      "POST",
      "x-grpc-web"
    )
    expect(corsHeaderNames(rpcPreflight.headers)).toEqual([])

    const me = await send(withCors, "GET", "/auth/me", {
      origin: "https://evil.example",
      authorization: `Bearer ${token}`
    })
    expect(me.status).toBe(200)
    expect(corsHeaderNames(me.headers)).toEqual([])
  })

  it("a request without an Origin, and an OPTIONS that is no preflight, are served as with CORS off", async () => {
    const me = await send(withCors, "GET", "/auth/me", { authorization: `Bearer ${token}` })
    expect(me.status).toBe(200)
    expect(corsHeaderNames(me.headers)).toEqual([])

    const options = await send(withCors, "OPTIONS", "/session/1", { origin: allowed })
    expect(options.status).toBe(405)
    expect(options.headers.get("allow")).toBe("GET, HEAD")
  })
})

describe("CORS off (CORS_ORIGINS unset): nothing changes", () => {
  it("a preflight from any origin is the 405 problem with Allow, without CORS headers", async () => {
    for (const origin of [allowed, "https://evil.example"]) {
      const answer = await preflight(withoutCors, "/session/create", origin, "POST", "authorization,content-type")
      expect(answer.status).toBe(405)
      expect(answer.headers.get("allow")).toBe("POST")
      expect(answer.headers.get("content-type")).toBe("application/problem+json")
      expect(JSON.parse(answer.text)).toMatchObject({
        status: 405,
        title: "Method Not Allowed",
        instance: "/session/create"
      })
      expect(corsHeaderNames(answer.headers)).toEqual([])
      expect(answer.headers.get("vary")).toBeNull()
    }
    const rpc = await preflight(withoutCors, "/todo.TodoService/ListTasks", allowed, "POST", "x-grpc-web")
    expect(rpc.status).not.toBe(204)
    expect(corsHeaderNames(rpc.headers)).toEqual([])
  })

  it("a request with an Origin gets no Access-Control-Allow-Origin", async () => {
    const answer = await send(withoutCors, "GET", "/health/live", { origin: allowed })
    expect(answer.status).toBe(200)
    expect(corsHeaderNames(answer.headers)).toEqual([])
    expect(answer.headers.get("vary")).toBeNull()
  })
})
