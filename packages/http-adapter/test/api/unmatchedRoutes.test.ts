import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { contractEndpoints } from "../support/contractEndpoints.ts"
import { expectProblem } from "@club/test-support/expectations"

const club = clubForFile()

/** Every method a REST client might send; the contract's own are the ones `Allow` lists. */
const methods = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const

/** Whether a segment is a name (it starts with a letter): never an id. */
const isName = (segment: string) => /^[A-Za-z]/u.test(segment)

/**
 * Whether the router's template (`/activite/:id`) matches `path`: a parameter takes any one
 * segment, except a name where an id goes (`:id`, `:sessionId`).
 */
const matches = (template: string, path: string) => {
  const [wanted, given] = [template.split("/"), path.split("/")]
  return wanted.length === given.length &&
    wanted.every((segment, i) =>
      segment.startsWith(":")
        ? !((segment === ":id" || segment.endsWith("Id")) && isName(given[i]!))
        : segment === given[i]
    )
}

/** The methods `path` is served with, whichever templates take it; HEAD wherever GET. */
const servedWith = (path: string) => {
  const allowed = new Set(
    contractEndpoints().filter((endpoint) => matches(endpoint.path, path)).map((endpoint) => endpoint.method)
  )
  if (allowed.has("GET")) allowed.add("HEAD")
  return [...allowed].sort()
}

/** The contract's paths without a parameter, each with the methods no template of it takes. */
const fixedPaths = [...new Set(contractEndpoints().map((endpoint) => endpoint.path))].filter((path) =>
  !path.includes(":")
)

describe("a request no route takes", () => {
  it.each(fixedPaths)("%s with a method it is not served with: 405 problem+json with Allow", async (path) => {
    const allowed = servedWith(path)
    for (const method of methods.filter((candidate) => !allowed.includes(candidate))) {
      const reply = await club().admin.send(method, path)
      expectProblem(reply, 405, `${method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`)
      expect(reply.headers.get("allow")).toBe(allowed.join(", "))
    }
  })

  it("a path no route has: 404 problem+json naming it", async () => {
    expectProblem(await club().admin.get("/no/such/path"), 404, "No resource at /no/such/path")
    expectProblem(await club().anonymous.send("DELETE", "/session/1/extra"), 404, "No resource at /session/1/extra")
  })

  it("a name where a route has an id is no route, before any token is asked for: 404, or 405 with Allow where the path is served", async () => {
    for (const path of ["/favicon.ico", "/swagger", "/sessions", "/robots.txt", "/update/abc", "/session/abc"]) {
      for (const caller of [club().anonymous, club().admin]) {
        expectProblem(await caller.get(path), 404, `No resource at ${path}`)
      }
    }
    expectProblem(await club().anonymous.send("DELETE", "/delete/all"), 404, "No resource at /delete/all")
    for (const caller of [club().anonymous, club().admin]) {
      const reply = await caller.get("/athletes/all")
      expectProblem(reply, 405, "GET is not allowed on /athletes/all; allowed: POST")
      expect(reply.headers.get("allow")).toBe("POST")
    }
    // The list itself, and an id written wrong but not a name, are the routes' as before.
    expect((await club().admin.post("/athletes/all")).status).toBe(200)
    for (const id of ["0", "-1", "07", "1.5", "9007199254740993"]) {
      expectProblem(await club().admin.get(`/${id}`), 400, /id/u)
      expectProblem(await club().coach.get(`/session/${id}`), 400, /id/u)
    }
  })

  it("GET / answers without a token where to go: the docs, the OpenAPI document, health, login", async () => {
    for (const caller of [club().anonymous, club().admin]) {
      const reply = await caller.get("/")
      expect(reply.status).toBe(200)
      expect(reply.contentType).toBe("application/json")
      expect(reply.body).toEqual({
        name: "Club Training Service",
        docs: "/docs",
        openapi: "/openapi.json",
        health: { live: "/health/live", ready: "/health/ready" },
        login: "/auth/login"
      })
    }
    for (const target of ["/docs", "/openapi.json", "/health/live", "/health/ready"]) {
      expect((await club().anonymous.get(target)).status, target).toBe(200)
    }
    const post = await club().anonymous.post("/")
    expectProblem(post, 405, "POST is not allowed on /; allowed: GET, HEAD")
  })

  it("paths match exactly as the seed spells them (case-sensitive)", async () => {
    expectProblem(await club().admin.get("/Session/all"), 404)
  })
})

describe("problem+json answers carry the request's id", () => {
  const requestId = { "x-request-id": "req-0123456789" }

  it("from a handler, the authentication, the role gate, the decoder and the router", async () => {
    const replies = [
      await club().coach.get("/coaches/987654321", { headers: requestId }),
      await club().anonymous.get("/session/all", { headers: requestId }),
      await club().athlete.post("/session/create", { name: "x" }, { headers: requestId }),
      await club().coach.get("/session/07", { headers: requestId }),
      await club().coach.send("PATCH", "/session/all", { headers: requestId }),
      await club().coach.get("/nothing/here", { headers: requestId })
    ]
    expect(replies.map((reply) => reply.status)).toEqual([404, 401, 403, 400, 405, 404])
    for (const reply of replies) {
      expect(reply.contentType).toBe("application/problem+json")
      expect(reply.body).toMatchObject({ requestId: "req-0123456789" })
    }
  })

  it("and no other answer is touched: a success and the seed's plain texts stay as they are", async () => {
    const ok = await club().coach.get("/session/all", { headers: requestId })
    expect(ok.status).toBe(200)
    expect(Array.isArray(ok.body)).toBe(true)
    const text = await club().athlete.get("/session/987654321", { headers: requestId })
    expect(text.text).toBe("Session not found with id 987654321")
  })
})
