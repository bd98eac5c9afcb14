/** An HTTP answer read whole, as a test of the REST API looks at it, in process or over the wire. */
export interface Reply {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly headers: Headers
  /** The media type of `content-type`, without parameters; null when the answer has none. */
  readonly contentType: string | null
  readonly text: string
  /** The parsed body when the answer is JSON (`application/json` or `application/problem+json`). */
  readonly body: unknown
}

const isJsonMediaType = (mediaType: string | null) =>
  mediaType === "application/json" || mediaType === "application/problem+json"

/** Reads `response` whole; a JSON answer whose text does not parse keeps `body` undefined. */
export const readReply = async (method: string, path: string, response: Response): Promise<Reply> => {
  const text = await response.text()
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? null
  let body: unknown = undefined
  if (isJsonMediaType(contentType) && text !== "") {
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
  }
  return { method, path, status: response.status, headers: response.headers, contentType, text, body }
}
