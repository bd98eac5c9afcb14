import { ClubApiError, type Problem } from "../shared/ClubApiError.ts"
import { type AccessToken, isExpired, TOKEN_EXPIRED_MESSAGE } from "../shared/AccessToken.ts"
import type { CallOptions, ClientOptions } from "../shared/ClientOptions.ts"
import { fetchWithHooks } from "../shared/fetchWithHooks.ts"
import {
  delayBeforeRetry,
  retryableStatuses,
  retryAfterMs,
  type RetryPolicy,
  retryPolicy
} from "../shared/retryDelay.ts"
import type { Operation } from "./Operation.ts"

/**
 * The light client's one call: the same request, retries, timeout, signal and `ClubApiError`s as
 * the Promise face over Effect (src/promise/runCall.ts, src/rest/callClient.ts,
 * src/errors/toClubApiError.ts), on `fetch` and the generated operation table alone.
 */

const idempotentMethods: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"])
/** The seed's reads made with POST. */
const readsSentAsPost: ReadonlySet<string> = new Set(["/athletes/all"])

/** What the client saw of the call's last answer, for the error it may end with. */
interface Seen {
  requestId?: string | undefined
  status?: number | undefined
  retryAfterMs?: number | undefined
}

export interface CallContext {
  readonly options: ClientOptions
  readonly token: AccessToken | undefined
  readonly send: typeof globalThis.fetch
  readonly policy: RetryPolicy
}

export const callContext = (options: ClientOptions, token: AccessToken | undefined): CallContext => ({
  options,
  token,
  send: fetchWithHooks(options.fetch, options.hooks),
  policy: retryPolicy(options.retry)
})

/** How a call ended early: its signal, or its time limit. */
class Ended {
  constructor(readonly error: () => ClubApiError) {}
}

const secondsOf = (ms: number | undefined) => (ms === undefined ? undefined : Math.ceil(ms / 1000))

/** The problem's `detail`, or the plain-text body, when the server gave either. */
const messageOf = (body: string): string | undefined => {
  const text = body.trim()
  if (text === "") return undefined
  try {
    const json: unknown = JSON.parse(text)
    if (typeof json === "object" && json !== null) {
      const { detail, message, title } = json as Record<string, unknown>
      const found = [detail, message, title].find((value) => typeof value === "string")
      if (typeof found === "string") return found
    }
  } catch {
    // Not JSON: the body is the message.
  }
  return text
}

const stringOr = (value: unknown) => (typeof value === "string" ? value : undefined)

const problemError = (tag: string, status: number, body: Record<string, unknown>, seen: Seen) => {
  const title = stringOr(body["title"]) ?? ""
  const detail = stringOr(body["detail"])
  const message = detail ?? title
  const problem: Problem = {
    type: stringOr(body["type"]) ?? "about:blank",
    title,
    status,
    detail,
    instance: stringOr(body["instance"]),
    errors: Array.isArray(body["errors"]) ? body["errors"] as Problem["errors"] : undefined
  }
  const common = {
    status,
    retryAfter: typeof body["retryAfter"] === "number" ? body["retryAfter"] : secondsOf(seen.retryAfterMs),
    problem,
    requestId: seen.requestId,
    cause: body
  }
  return tag === "Unauthorized" && /expired/i.test(message)
    ? new ClubApiError({ ...common, tag: "TokenExpired", message: TOKEN_EXPIRED_MESSAGE })
    : new ClubApiError({ ...common, tag: tag as never, message })
}

/** The seed's own failure bodies carry no message of their own when empty. */
const seedMessages: Record<string, string> = {
  ActivityFailed: "The activity operation failed",
  SessionCreateFailed: "The session could not be created",
  SessionNotFoundText: "Session not found",
  NotFoundEmpty: "Not found",
  AthleteUpdateFailed: "The athlete update failed: the athlete or a session was not found"
}

const unexpected = (status: number, message: string, seen: Seen, cause?: unknown) =>
  new ClubApiError({
    tag: "UnexpectedResponse",
    status,
    message,
    retryAfter: secondsOf(seen.retryAfterMs),
    requestId: seen.requestId,
    cause
  })

const mismatch = (status: number, what: string, seen: Seen) =>
  unexpected(status, `The server's answer does not match the contract: ${what}`, seen)

const isJson = (type: string) => /[/+]json\b/u.test(type)

/** The id at the end of an activity's `Location` (`/activite/<id>`, behind a prefix or an origin too). */
const idInLocation = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?(?:\/[^?#]*)?\/activite\/([1-9][0-9]{0,15})$/iu

/** Reads an answer as the operation declares it: its success value, or the `ClubApiError` it stands for. */
const readAnswer = async (operation: Operation, response: Response, seen: Seen): Promise<unknown> => {
  const { status } = response
  const body = await response.text()
  const type = response.headers.get("content-type") ?? ""
  const success = operation.s.find(([successStatus]) => successStatus === status)
  if (success !== undefined) {
    const [, successKind] = success
    switch (successKind) {
      case "n":
        return undefined
      case "t":
        return body
      case "l": {
        const id = idInLocation.exec(response.headers.get("location") ?? "")?.[1]
        if (body !== "Activity created" || id === undefined) {
          throw mismatch(status, "expected `Activity created` and the activity's path in Location", seen)
        }
        return { message: body, id: Number(id) }
      }
      default:
        try {
          return JSON.parse(body) as unknown
        } catch {
          throw mismatch(status, "the body is not JSON", seen)
        }
    }
  }
  const declared = operation.e.filter(([errorStatus]) => errorStatus === status)
  if (declared.length === 0) throw unexpected(status, messageOf(body) ?? `HTTP ${status}`, seen)
  // Failures that share a status differ by their body: a problem, plain text, or none.
  const kind = body === "" ? "n" : isJson(type) ? "p" : "t"
  const failure = declared.find(([, , bodyKind]) => bodyKind === kind) ??
    (kind === "n" ? undefined : declared.find(([, , bodyKind]) => bodyKind === "t" && kind === "p"))
  if (failure === undefined) throw mismatch(status, `no declared failure of status ${status} has this body`, seen)
  const [, tag, bodyKind, prefix = ""] = failure
  if (bodyKind === "p") {
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      throw mismatch(status, "the problem is not JSON", seen)
    }
    if (typeof json !== "object" || json === null) throw mismatch(status, "the problem is not an object", seen)
    return Promise.reject(problemError(tag, status, json as Record<string, unknown>, seen))
  }
  const text = bodyKind === "t" && body.startsWith(prefix) ? body.slice(prefix.length) : body
  return Promise.reject(
    new ClubApiError({
      tag: tag as never,
      status,
      message: bodyKind === "t" && text !== "" ? text : seedMessages[tag] ?? tag,
      requestId: seen.requestId,
      cause: { _tag: tag, message: text }
    })
  )
}

/** The locally answered 401 of an expired token, as the server would answer it. */
const tokenExpired = () =>
  problemError("Unauthorized", 401, {
    type: "about:blank",
    title: "Unauthorized",
    status: 401,
    detail: TOKEN_EXPIRED_MESSAGE
  }, {})

interface CallRequest {
  readonly params?: Readonly<Record<string, unknown>>
  readonly query?: Readonly<Record<string, unknown>>
  readonly payload?: unknown
}

const urlOf = (baseUrl: string, operation: Operation, request: CallRequest | undefined) => {
  const path = operation.p.replace(/:(\w+)/gu, (_, name: string) => encodeURIComponent(String(request?.params?.[name])))
  const url = new URL(`${baseUrl.replace(/\/+$/u, "")}${path}`)
  for (const [name, value] of Object.entries(request?.query ?? {})) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one))
  }
  return url
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs one call: sends it, and again while the answer says "not now" (no answer, 429, 502, 503,
 * 504) and the call may be repeated; resolves with the decoded answer or rejects with a
 * `ClubApiError`. Its timeout covers the retries; its signal cancels the request under way.
 */
export const fetchCall = async (
  context: CallContext,
  operation: Operation,
  request: CallRequest | undefined,
  options: CallOptions | undefined
): Promise<unknown> => {
  const seen: Seen = {}
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let onAbort: (() => void) | undefined
  const ended = new Promise<never>((_, reject) => {
    const end = (error: () => ClubApiError) => {
      controller.abort()
      reject(new Ended(error))
    }
    const timeoutMs = options?.timeoutMs ?? context.options.timeoutMs
    if (timeoutMs !== undefined) {
      timer = setTimeout(() =>
        end(() =>
          new ClubApiError({
            tag: "Timeout",
            message: `The call took longer than ${timeoutMs} ms and was abandoned`,
            requestId: seen.requestId
          })
        ), timeoutMs)
    }
    const signal = options?.signal
    onAbort = () =>
      end(() => new ClubApiError({ tag: "Aborted", message: "The call was aborted", requestId: seen.requestId }))
    if (signal?.aborted === true) onAbort()
    else signal?.addEventListener("abort", onAbort, { once: true })
  })
  ended.catch(() => undefined)
  const run = async (): Promise<unknown> => {
    if (operation.a === 1 && context.token !== undefined && isExpired(context.token, Date.now())) throw tokenExpired()
    const url = urlOf(context.options.baseUrl, operation, request)
    const headers: Record<string, string> = { ...context.options.headers, ...options?.headers }
    if (options?.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey
    if (operation.a === 1 && context.token !== undefined) headers["authorization"] = `Bearer ${context.token.value}`
    const hasBody = request !== undefined && "payload" in request
    if (hasBody) headers["content-type"] = "application/json"
    const mayRepeat = idempotentMethods.has(operation.m) ||
      (operation.m === "POST" && readsSentAsPost.has(operation.p)) ||
      options?.idempotencyKey !== undefined
    for (let attempt = 1;; attempt++) {
      let response: Response
      try {
        response = await context.send(url, {
          method: operation.m,
          headers,
          signal: controller.signal,
          ...(hasBody ? { body: JSON.stringify(request.payload) } : {})
        })
      } catch (error) {
        if (controller.signal.aborted) throw error
        const delay = mayRepeat ? delayBeforeRetry(context.policy, attempt, undefined) : undefined
        if (delay === undefined) {
          throw new ClubApiError({
            tag: "NetworkError",
            message: String((error as Error)?.message ?? error),
            cause: error
          })
        }
        await sleep(delay)
        continue
      }
      seen.status = response.status
      seen.requestId = response.headers.get("x-request-id") ?? undefined
      seen.retryAfterMs = retryAfterMs(response.headers.get("retry-after"), Date.now())
      const delay = mayRepeat && retryableStatuses.has(response.status)
        ? delayBeforeRetry(context.policy, attempt, seen.retryAfterMs)
        : undefined
      if (delay === undefined) return readAnswer(operation, response, seen)
      // The answer that is retried is discarded unread.
      await response.body?.cancel().catch(() => undefined)
      await sleep(delay)
    }
  }
  try {
    return await Promise.race([run(), ended])
  } catch (error) {
    if (error instanceof Ended) throw error.error()
    if (error instanceof ClubApiError) throw error
    throw new ClubApiError({ tag: "Defect", message: String(error), cause: error })
  } finally {
    clearTimeout(timer)
    if (onAbort !== undefined) options?.signal?.removeEventListener("abort", onAbort)
  }
}
