import { createHash } from "node:crypto"
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ServerProcess, startServer } from "@club/test-support"
import { grpcEmptyCall } from "../support/requests.ts"

const adminPassword = "answers-admin-password"

let server: ServerProcess
let url: string
let token: string
beforeAll(async () => {
  server = await startServer({ DATA_DIR: "memory://", ADMIN_PASSWORD: adminPassword })
  url = `http://127.0.0.1:${server.port}`
  const login = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "admin", password: adminPassword })
  })
  token = ((await login.json()) as { token: string }).token
}, 120_000)
afterAll(() => server?.stop())

const send = (
  method: string,
  path: string,
  init: { token?: string; json?: unknown; headers?: Record<string, string> } = {}
) =>
  fetch(`${url}${path}`, {
    method,
    headers: {
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
      ...(init.json === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) })
  })

describe("security headers", () => {
  it("every answer says nosniff and no-store: data, the token, problems, Connect, gRPC, the documents", async () => {
    const answers = [
      await send("POST", "/auth/login", { json: { name: "admin", password: adminPassword } }),
      await send("GET", "/auth/me", { token }),
      await send("GET", "/users/all", { token }),
      await send("GET", "/users/999999", { token }),
      await send("GET", "/auth/me"),
      await send("GET", "/health/ready"),
      await send("GET", "/openapi.json"),
      await send("POST", "/todo.TodoService/ListTasks", { token, json: {} })
    ]
    for (const answer of answers) {
      expect(answer.headers.get("x-content-type-options"), answer.url).toBe("nosniff")
      expect(answer.headers.get("cache-control"), answer.url).toBe("no-store")
      await answer.arrayBuffer()
    }
    const grpc = await grpcEmptyCall(server.port, "/todo.TodoService/ListTasks", { authorization: `Bearer ${token}` })
    expect(grpc["grpc-status"]).toBe("0")
    expect(grpc["x-content-type-options"]).toBe("nosniff")
    expect(grpc["cache-control"]).toBe("no-store")
  })

  it("/docs runs only its own inline scripts (by hash), loads nothing from elsewhere and cannot be framed", async () => {
    const docs = await send("GET", "/docs")
    const html = await docs.text()
    const policy = docs.headers.get("content-security-policy") ?? ""
    const directives = new Map(
      policy.split(";").map((part) => {
        const [name, ...sources] = part.trim().split(/\s+/u)
        return [name!, sources] as const
      })
    )
    expect(directives.get("default-src")).toEqual(["'none'"])
    expect(directives.get("frame-ancestors")).toEqual(["'none'"])
    expect(directives.get("connect-src")).toEqual(["'self'"])
    const inline = Array.from(
      html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/gu),
      ([, body]) => `'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`
    )
    expect(inline.length).toBeGreaterThanOrEqual(2)
    expect(directives.get("script-src")).toEqual(inline)
    expect(html).not.toMatch(/<script[^>]+src=/u)
  })

  it("/docs is compressed (gzip or Brotli, by Accept-Encoding), cacheable with an ETag, and 304 to a client holding it (issue 37)", async () => {
    /** The answer's bytes as they crossed the wire (fetch would decompress them). */
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }>((resolve, reject) => {
        http.get(`${url}/docs`, { headers }, (response) => {
          let bytes = 0
          response.on("data", (chunk: Buffer) => (bytes += chunk.length))
          response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, bytes }))
        }).on("error", reject)
      })
    const plain = await raw({})
    const gzipped = await raw({ "accept-encoding": "gzip" })
    const brotli = await raw({ "accept-encoding": "gzip, deflate, br" })
    expect([plain.status, plain.headers["content-encoding"]]).toEqual([200, undefined])
    expect([gzipped.status, gzipped.headers["content-encoding"]]).toEqual([200, "gzip"])
    expect(brotli.headers["content-encoding"]).toBe("br")
    expect(gzipped.bytes).toBeLessThan(plain.bytes / 3)
    expect(brotli.bytes).toBeLessThan(gzipped.bytes)
    for (const answer of [plain, gzipped, brotli]) {
      expect(answer.headers["cache-control"]).toBe("public, max-age=300")
      expect(answer.headers["vary"]).toBe("accept-encoding")
      expect(answer.headers["etag"]).toBe(plain.headers["etag"])
    }
    const held = await raw({ "accept-encoding": "gzip", "if-none-match": plain.headers["etag"]! })
    expect([held.status, held.bytes, held.headers["etag"]]).toEqual([304, 0, plain.headers["etag"]])
    expect((await raw({ "if-none-match": "\"another\"" })).status).toBe(200)
  })
})

describe("requests no route takes", () => {
  it("a known path with a method it does not take: 405 problem+json with Allow", async () => {
    for (
      const [method, path, allow] of [
        ["PATCH", "/session/1", "GET, HEAD"],
        ["POST", "/session/all", "GET, HEAD"],
        ["DELETE", "/health/live", "GET, HEAD"],
        ["PUT", "/coaches/all", "GET, HEAD"],
        ["PUT", "/activite/delete/3", "DELETE"],
        ["GET", "/users/update/2", "PUT"]
      ] as const
    ) {
      const answer = await send(method, path, { token })
      expect(answer.status, `${method} ${path}`).toBe(405)
      expect(answer.headers.get("allow"), `${method} ${path}`).toBe(allow)
      expect(answer.headers.get("content-type")).toBe("application/problem+json")
      expect(await answer.json()).toEqual({
        type: "about:blank",
        title: "Method Not Allowed",
        status: 405,
        detail: `${method} is not allowed on ${path}; allowed: ${allow}`,
        instance: path,
        requestId: answer.headers.get("x-request-id")
      })
    }
  })

  it("an unknown path: 404 problem+json, whoever asks", async () => {
    for (const caller of [token, undefined]) {
      for (const path of ["/foo/bar", "/session/1/extra", "/athletes/athletes/1/2/3", "/athletes/%FF"]) {
        const answer = await send("GET", path, caller === undefined ? {} : { token: caller })
        expect(answer.status, path).toBe(404)
        expect(answer.headers.get("content-type")).toBe("application/problem+json")
        expect(await answer.json()).toEqual({
          type: "about:blank",
          title: "Not Found",
          status: 404,
          detail: `No resource at ${path}`,
          instance: path,
          requestId: answer.headers.get("x-request-id")
        })
      }
    }
  })

  it("HEAD is answered wherever GET is", async () => {
    expect((await send("HEAD", "/health/live")).status).toBe(200)
  })
})
