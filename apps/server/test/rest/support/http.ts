/** Plain HTTP against the started server: what a client of the service sees, nothing more. */
import { readReply, type Reply } from "@club/test-support"

export type { Reply } from "@club/test-support"

export interface RequestOptions {
  /** A bearer token; `null` sends no `Authorization` header. */
  readonly token: string | null
  /** Serialised as the JSON body (with `content-type: application/json`). */
  readonly json?: unknown
  /** A raw body, sent as is (with `content-type: application/json` unless `headers` says otherwise). */
  readonly body?: string
  readonly headers?: Record<string, string>
}

/** One request; a network failure is thrown, every HTTP answer is returned. */
export const send = async (baseUrl: string, method: string, path: string, options: RequestOptions): Promise<Reply> => {
  const headers: Record<string, string> = {}
  if (options.token !== null) headers["authorization"] = `Bearer ${options.token}`
  const body = options.body ?? (options.json === undefined ? undefined : JSON.stringify(options.json))
  if (body !== undefined) headers["content-type"] = "application/json"
  Object.assign(headers, options.headers)
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  return readReply(method, path, response)
}

/** Requests made with one caller's credentials. */
export interface Caller {
  readonly get: (path: string, extra?: Partial<RequestOptions>) => Promise<Reply>
  readonly post: (path: string, json?: unknown, extra?: Partial<RequestOptions>) => Promise<Reply>
  readonly put: (path: string, json?: unknown, extra?: Partial<RequestOptions>) => Promise<Reply>
  readonly delete: (path: string, extra?: Partial<RequestOptions>) => Promise<Reply>
  readonly send: (method: string, path: string, extra?: Partial<RequestOptions>) => Promise<Reply>
}

export const callerWith = (
  request: (method: string, path: string, options: RequestOptions) => Promise<Reply>,
  token: string | null
): Caller => {
  const call = (method: string, path: string, extra: Partial<RequestOptions> = {}) =>
    request(method, path, { token, ...extra })
  const withJson = (method: string) => (path: string, json?: unknown, extra: Partial<RequestOptions> = {}) =>
    call(method, path, json === undefined ? extra : { json, ...extra })
  return {
    get: (path, extra) => call("GET", path, extra),
    post: withJson("POST"),
    put: withJson("PUT"),
    delete: (path, extra) => call("DELETE", path, extra),
    send: call
  }
}
