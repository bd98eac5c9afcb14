/** Plain HTTP against the started server: what a client of the service sees, nothing more. */
import { readReply, type Reply } from "@club/test-support"
import type { RequestOptions } from "@club/test-support/rest"

export type { Reply } from "@club/test-support"
export { type Caller, callerWith, type RequestOptions } from "@club/test-support/rest"

/** One request; a network failure is thrown, every HTTP answer is returned. */
export const send = async (baseUrl: string, method: string, path: string, options: RequestOptions): Promise<Reply> => {
  const headers: Record<string, string> = {}
  if (options.token !== undefined && options.token !== null) headers["authorization"] = `Bearer ${options.token}`
  const body = options.body ?? (options.json === undefined ? undefined : JSON.stringify(options.json))
  if (body !== undefined) headers["content-type"] = "application/json"
  Object.assign(headers, options.headers)
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  return readReply(method, path, response)
}
