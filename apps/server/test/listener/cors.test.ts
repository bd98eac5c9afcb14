import * as Http from "node:http"
import type * as Net from "node:net"
import { ClubApi } from "@club/contract/rest"
import { HttpApi } from "effect/http-api"
import { afterEach, describe, expect, it } from "vitest"
import { makeCorsStep } from "../../src/listener/cors.ts"

const servers: Array<Http.Server> = []
afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))))

/** A server whose every request passes the CORS step first, then is answered `served`. */
const serve = async (origins: ReadonlyArray<string>) => {
  const step = makeCorsStep(origins)
  const server = Http.createServer((request, response) => {
    const next = () => response.end("served")
    if (step === undefined) next()
    else step(request, response, next)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as Net.AddressInfo).port}`
}

describe("makeCorsStep", () => {
  it("no origins: CORS off, no step at all", () => {
    expect(makeCorsStep([])).toBeUndefined()
  })

  it("`*`: any origin may call, told so with `Access-Control-Allow-Origin: *`; a request without an Origin gets nothing", async () => {
    const url = await serve(["*"])
    const preflight = await fetch(`${url}/anything`, {
      method: "OPTIONS",
      headers: { origin: "https://anywhere.example", "access-control-request-method": "PUT" }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
    expect(await preflight.text()).toBe("")

    const request = await fetch(`${url}/anything`, { headers: { origin: "https://elsewhere.example" } })
    expect(await request.text()).toBe("served")
    expect(request.headers.get("access-control-allow-origin")).toBe("*")

    const plain = await fetch(`${url}/anything`)
    expect(await plain.text()).toBe("served")
    expect(plain.headers.get("access-control-allow-origin")).toBeNull()
  })

  it("a preflight allows every method of the REST contract (PATCH included) and HEAD", async () => {
    const url = await serve(["https://club.example"])
    const contractMethods = new Set<string>()
    HttpApi.reflect(ClubApi, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint }) => {
        contractMethods.add(endpoint.method)
      }
    })
    expect(contractMethods).toContain("PATCH")
    const preflight = await fetch(`${url}/planning/sessions/7`, {
      method: "OPTIONS",
      headers: { origin: "https://club.example", "access-control-request-method": "PATCH" }
    })
    expect(preflight.status).toBe(204)
    const allowed = (preflight.headers.get("access-control-allow-methods") ?? "").split(",").map((m) => m.trim())
    expect(allowed).toEqual(expect.arrayContaining([...contractMethods, "HEAD"]))
  })

  it("listed origins are matched exactly: scheme, host and port", async () => {
    const url = await serve(["https://club.example", "http://localhost:5173"])
    for (
      const origin of [
        "http://club.example",
        "https://club.example:8443",
        "https://sub.club.example",
        "http://localhost:5174",
        "null"
      ]
    ) {
      const answer = await fetch(`${url}/x`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET" }
      })
      expect(await answer.text(), origin).toBe("served")
      expect(answer.headers.get("access-control-allow-origin"), origin).toBeNull()
    }
    const allowed = await fetch(`${url}/x`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "GET" }
    })
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:5173")
  })
})
