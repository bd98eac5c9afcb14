import { expect } from "vitest"
import type { Reply } from "./Reply.ts"

/** The titles of CONTRACT.md's problems, by status (RFC 9110's reason phrases). */
export const problemTitles: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  503: "Service Unavailable"
}

const describeReply = (reply: Reply) =>
  `${reply.method} ${reply.path} answered ${reply.status} ${reply.contentType ?? "(no content-type)"} ${
    reply.text.slice(0, 300)
  }`

export const expectStatus = (reply: Reply, status: number) => expect(reply.status, describeReply(reply)).toBe(status)

/** 2xx or 4xx with a JSON body equal to `body`. */
export const expectJson = (reply: Reply, status: number, body: unknown) => {
  expectStatus(reply, status)
  expect(reply.contentType, describeReply(reply)).toBe("application/json")
  expect(reply.body).toEqual(body)
}

/** A plain-text body, exactly `text` (or matching it). */
export const expectText = (reply: Reply, status: number, text: string | RegExp) => {
  expectStatus(reply, status)
  expect(reply.contentType, describeReply(reply)).toBe("text/plain")
  if (typeof text === "string") expect(reply.text).toBe(text)
  else expect(reply.text).toMatch(text)
}

/** The seed's "empty body". */
export const expectEmpty = (reply: Reply, status: number) => {
  expectStatus(reply, status)
  expect(reply.text, describeReply(reply)).toBe("")
}

export interface ProblemExpectation {
  /** The exact detail, or a pattern it must match. */
  readonly detail?: string | RegExp
  /** Defaults to the request path. */
  readonly instance?: string
}

/**
 * An RFC 9457 `application/problem+json` answer of CONTRACT.md's shape; `expected` is its detail
 * (exact, or a pattern) or a `ProblemExpectation`.
 */
export const expectProblem = (
  reply: Reply,
  status: number,
  expectation: ProblemExpectation | string | RegExp = {}
) => {
  const expected: ProblemExpectation = typeof expectation === "string" || expectation instanceof RegExp
    ? { detail: expectation }
    : expectation
  expectStatus(reply, status)
  expect(reply.contentType, describeReply(reply)).toBe("application/problem+json")
  const body = reply.body as Record<string, unknown>
  expect(body).toMatchObject({
    type: "about:blank",
    title: problemTitles[status],
    status,
    instance: expected.instance ?? reply.path.split("?")[0]
  })
  expect(typeof body["detail"], describeReply(reply)).toBe("string")
  if (typeof expected.detail === "string") expect(body["detail"]).toBe(expected.detail)
  else if (expected.detail !== undefined) expect(body["detail"]).toMatch(expected.detail)
}

/** A 401 problem with the `WWW-Authenticate: Bearer` challenge (or one matching `challenge`). */
export const expectUnauthenticated = (reply: Reply, challenge: RegExp = /^Bearer\b/u) => {
  expectProblem(reply, 401)
  expect(reply.headers.get("www-authenticate"), describeReply(reply)).toMatch(challenge)
}

/** An allowed caller: whatever the outcome, not a refusal of the caller. */
export const expectNotRefused = (reply: Reply) => expect([401, 403], describeReply(reply)).not.toContain(reply.status)

/** Never a 5xx, except the seed's activity failures (checked by their own expectations). */
export const expectNoServerError = (reply: Reply) => expect(reply.status, describeReply(reply)).toBeLessThan(500)
