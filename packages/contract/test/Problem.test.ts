import { Effect, ErrorReporter, Schema } from "effect"
import { HttpServerRespondable } from "effect/http"
import { describe, expect, it } from "vitest"
import { NotFound, TooManyRequests, Unavailable } from "../src/rest/shared/Problems.ts"

const decode = Schema.decodeUnknownEffect(NotFound)
const encode = Schema.encodeUnknownEffect(NotFound)
const ignoredByReporters = (error: object) => (error as Record<string, unknown>)[ErrorReporter.ignore]
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

describe("Problem: an RFC 9457 problem as an error class, the same on every effect 4.x", () => {
  it("encodes its type, its own status and title, and the members it has", async () => {
    expect(await run(encode(new NotFound({ detail: "Session 7 not found", requestId: "r-1" })))).toEqual({
      type: "about:blank",
      status: 404,
      title: "Not Found",
      detail: "Session 7 not found",
      requestId: "r-1"
    })
  })

  it("decodes a problem that omits status and title, or carries others, into the class with its own", async () => {
    const bare = await run(decode({ type: "about:blank" }))
    expect(bare).toBeInstanceOf(NotFound)
    expect({ status: bare.status, title: bare.title, detail: bare.detail }).toEqual({
      status: 404,
      title: "Not Found",
      detail: undefined
    })
    const rewritten = await run(decode({ type: "about:blank", status: 400, title: "Something else" }))
    expect({ status: rewritten.status, title: rewritten.title }).toEqual({ status: 404, title: "Not Found" })
  })

  it("refuses another type, and drops a detail or instance of the wrong type rather than refusing", async () => {
    const exit = await Effect.runPromiseExit(decode({ type: "https://example.test/other", status: 404 }))
    expect(exit._tag).toBe("Failure")
    const odd = await run(decode({ type: "about:blank", detail: 42, instance: ["x"] }))
    expect({ detail: odd.detail, instance: odd.instance }).toEqual({ detail: undefined, instance: undefined })
  })

  it("keeps its extension members checked: a requestId that is not a string is refused", async () => {
    const exit = await Effect.runPromiseExit(decode({ type: "about:blank", requestId: 12 }))
    expect(exit._tag).toBe("Failure")
  })

  it("has the detail as its message, or the title when there is none, and its tag", () => {
    expect(new NotFound({ detail: "No such coach" }).message).toBe("No such coach")
    expect(new NotFound({}).message).toBe("Not Found")
    expect(new NotFound({})._tag).toBe("NotFound")
  })

  it("answers as application/problem+json with its status", async () => {
    const response = await run(HttpServerRespondable.toResponse(new Unavailable({ detail: "Try later" })))
    expect(response.status).toBe(503)
    expect(response.headers["content-type"] ?? (response.body as { contentType?: string }).contentType).toMatch(
      /^application\/problem\+json/u
    )
  })

  it("is left out of error reports when it is the caller's mistake (4xx), not when it is the service's (5xx)", () => {
    expect(ignoredByReporters(new NotFound({}))).toBe(true)
    expect(ignoredByReporters(new TooManyRequests({ retryAfter: 1 }))).toBe(true)
    expect(ignoredByReporters(new Unavailable({}))).toBe(false)
  })
})
