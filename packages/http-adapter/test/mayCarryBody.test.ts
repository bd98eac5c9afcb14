import { describe, expect, it } from "@effect/vitest"
import type { HttpServerRequest } from "effect/http"
import { mayCarryBody } from "../src/shared/mayCarryBody.ts"

/** The parts of a request `mayCarryBody` reads: its method, headers, and the platform's message. */
const request = (method: string, headers: Record<string, string>, source: object) =>
  ({ method, headers, source }) as unknown as HttpServerRequest.HttpServerRequest

const http1 = { httpVersionMajor: 1 }
const http2 = { httpVersionMajor: 2 }

describe("Whether a request's body is read", () => {
  it("an HTTP/1.1 POST with neither content-length nor transfer-encoding has no body: it is not read", () => {
    expect(mayCarryBody(request("POST", {}, http1))).toBe(false)
    expect(mayCarryBody(request("POST", { "content-length": "0" }, http1))).toBe(false)
  })

  it("an HTTP/1.1 request that announces a body is read, whatever its method", () => {
    expect(mayCarryBody(request("POST", { "content-length": "12" }, http1))).toBe(true)
    expect(mayCarryBody(request("PUT", { "transfer-encoding": "chunked" }, http1))).toBe(true)
    expect(mayCarryBody(request("GET", { "content-length": "3" }, http1))).toBe(true)
  })

  it("over HTTP/2, or from a web Request, a method that takes a body is read without any header saying so", () => {
    expect(mayCarryBody(request("POST", {}, http2))).toBe(true)
    expect(mayCarryBody(request("DELETE", {}, new Request("http://club.test/", { method: "DELETE" })))).toBe(true)
    expect(mayCarryBody(request("GET", {}, http2))).toBe(false)
    expect(mayCarryBody(request("HEAD", {}, http2))).toBe(false)
  })
})
