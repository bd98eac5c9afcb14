import { problemTitles } from "@club/test-support/expectations"
import type { RawReply } from "../support/rawHttp.ts"
import type { Outcome } from "./contract.ts"
import { type FuzzRequest, nameAsIdVariant } from "./requests.ts"

/** The seed's activity writes answer any failure with 500 `text/plain` `Error: <message>`; nothing else may be a 5xx. */
const seedActivityFailure = new Set(["activities.create", "activities.update", "activities.delete"])

/** What must never appear in an answer: password material and the signing secret. */
export interface Secrets {
  readonly passwords: ReadonlyArray<string>
  readonly jwtSecret: string
}

const checkProblem = (request: FuzzRequest, reply: RawReply, body: Record<string, unknown>): Array<string> => {
  const problems: Array<string> = []
  if (reply.contentType !== "application/problem+json") {
    problems.push(`an error with JSON body has content-type ${reply.contentType}`)
  }
  if (body["type"] !== "about:blank") problems.push(`problem type ${String(body["type"])}`)
  if (body["status"] !== reply.status) problems.push(`problem status ${String(body["status"])} on a ${reply.status}`)
  if (body["title"] !== problemTitles[reply.status]) {
    problems.push(`problem title ${String(body["title"])} on a ${reply.status}`)
  }
  if (typeof body["detail"] !== "string" || body["detail"].length === 0) problems.push("problem without a detail")
  if (body["instance"] !== request.path.split("?")[0]) problems.push(`problem instance ${String(body["instance"])}`)
  if (body["requestId"] === undefined || body["requestId"] !== reply.headers["x-request-id"]) {
    problems.push(
      `problem requestId ${String(body["requestId"])} on an answer whose X-Request-Id is ${
        String(reply.headers["x-request-id"])
      }`
    )
  }
  return problems
}

/**
 * Everything wrong with one answer: a 5xx the seed does not pin, a status or body the contract
 * does not declare for the endpoint, a malformed problem, a missing challenge or Retry-After,
 * or secret material. An empty list is a pass.
 */
export const judge = (
  request: FuzzRequest,
  reply: RawReply,
  outcome: Outcome | undefined,
  secrets: Secrets
): Array<string> => {
  const problems: Array<string> = []
  const id = request.endpoint?.id
  if (reply.status >= 500) {
    const pinned = id !== undefined && seedActivityFailure.has(id) && reply.status === 500 &&
      reply.contentType === "text/plain" &&
      reply.text.startsWith("Error: ")
    if (!pinned) problems.push(`server error ${reply.status}`)
  }
  if (outcome?._tag === "Undeclared") problems.push(`not declared by the contract: ${outcome.reason}`)
  let json: unknown = undefined
  if (reply.contentType === "application/json" || reply.contentType === "application/problem+json") {
    try {
      json = JSON.parse(reply.text)
    } catch {
      problems.push("a JSON content-type with a body that is not JSON")
    }
  } else if (
    reply.text !== "" && reply.contentType !== "text/plain" &&
    !(request.endpoint === undefined && reply.contentType === "text/html")
  ) {
    problems.push(`a body of content-type ${reply.contentType}`)
  }
  if (reply.status >= 400 && typeof json === "object" && json !== null && !Array.isArray(json)) {
    problems.push(...checkProblem(request, reply, json as Record<string, unknown>))
  }
  if (request.endpoint === undefined && (reply.status === 404 || reply.status === 405) && json === undefined) {
    problems.push("an unrouted request answered without a problem")
  }
  if (request.variant === nameAsIdVariant && ![404, 405, 429].includes(reply.status)) {
    problems.push(`a name where the route has an id answered ${reply.status}, not 404 or 405`)
  }
  if (reply.status === 405 && !/^[A-Z]+(, [A-Z]+)*$/u.test(String(reply.headers["allow"]))) {
    problems.push("405 without Allow")
  }
  if (
    reply.status === 401 && request.endpoint?.authenticated === true &&
    !/^Bearer\b/u.test(String(reply.headers["www-authenticate"]))
  ) {
    problems.push("401 without WWW-Authenticate: Bearer")
  }
  if (reply.status === 429 && !/^\d+$/u.test(String(reply.headers["retry-after"]))) {
    problems.push("429 without Retry-After")
  }
  if (!/^[A-Za-z0-9._:-]{1,128}$/u.test(String(reply.headers["x-request-id"]))) {
    problems.push("an answer without X-Request-Id")
  }
  if (/scrypt\$|\$argon2/u.test(reply.text)) problems.push("a password hash in the answer")
  if (secrets.passwords.some((password) => reply.text.includes(password))) problems.push("a password in the answer")
  if (reply.text.includes(secrets.jwtSecret)) problems.push("the signing secret in the answer")
  return problems.map((problem) =>
    `${request.method} ${
      request.path.slice(0, 120)
    } [${request.variant}, ${request.caller}] → ${reply.status}: ${problem}`
  )
}
