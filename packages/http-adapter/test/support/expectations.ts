import { expect } from "vitest"
import type { Reply } from "./InProcessApp.ts"

/** The seed's titles of the problems, by status (RFC 9110's reason phrases). */
const problemTitle: Readonly<Record<number, string>> = {
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

/** The answer in one line, for the message of a failed expectation. */
const seen = (reply: Reply) =>
  `${reply.method} ${reply.path} answered ${reply.status} ${reply.contentType ?? "(no content-type)"} ${
    reply.text.slice(0, 300)
  }`

export const expectStatus = (reply: Reply, status: number) => expect(reply.status, seen(reply)).toBe(status)

/** A JSON body equal to `body`. */
export const expectJson = (reply: Reply, status: number, body: unknown) => {
  expectStatus(reply, status)
  expect(reply.contentType, seen(reply)).toBe("application/json")
  expect(reply.body).toEqual(body)
}

/** A plain-text body: exactly `text`, or matching it. */
export const expectText = (reply: Reply, status: number, text: string | RegExp) => {
  expectStatus(reply, status)
  expect(reply.contentType, seen(reply)).toBe("text/plain")
  if (typeof text === "string") expect(reply.text).toBe(text)
  else expect(reply.text).toMatch(text)
}

/** The seed's empty body. */
export const expectEmpty = (reply: Reply, status: number) => {
  expectStatus(reply, status)
  expect(reply.text, seen(reply)).toBe("")
}

/** An RFC 9457 problem: `application/problem+json`, the status's title, the request's path as `instance`. */
export const expectProblem = (reply: Reply, status: number, detail?: string | RegExp) => {
  expectStatus(reply, status)
  expect(reply.contentType, seen(reply)).toBe("application/problem+json")
  expect(reply.body).toMatchObject({
    type: "about:blank",
    title: problemTitle[status],
    status,
    instance: reply.path.split("?")[0],
    detail: detail === undefined
      ? expect.any(String)
      : typeof detail === "string"
      ? detail
      : expect.stringMatching(detail)
  })
}

/** 401 with the Bearer challenge. */
export const expectUnauthenticated = (reply: Reply, challenge: RegExp = /^Bearer\b/u) => {
  expectProblem(reply, 401)
  expect(reply.headers.get("www-authenticate"), seen(reply)).toMatch(challenge)
}

/** An allowed caller: whatever the outcome, the caller was not refused. */
export const expectNotRefused = (reply: Reply) => expect([401, 403], seen(reply)).not.toContain(reply.status)
