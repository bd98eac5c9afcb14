import { CursorSeal, defaultPageLimit, openCursor } from "@club/core"
import {
  InvalidRequest,
  LimitParameter,
  ListCursor,
  type ListPosition,
  listPositionText,
  Paged,
  readListPosition
} from "@club/contract/rest"
import { Effect, Layer, Schema, Stream } from "effect"
import { requestPath } from "./problems.ts"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

/** The body of a list's answer as bytes: as the handler built it, or its stream read whole. */
const bytesOf = Effect.fnUntraced(function*(response: HttpServerResponse.HttpServerResponse) {
  const body = response.body
  if (body._tag === "Uint8Array") return body.body
  if (body._tag === "Stream") {
    const chunks = yield* Stream.runCollect(body.stream).pipe(Effect.orDie)
    const all = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0))
    let at = 0
    for (const chunk of chunks) {
      all.set(chunk, at)
      at += chunk.length
    }
    return all
  }
  return undefined
})

const idOf = (item: unknown): number | undefined => {
  const id = (item as { readonly id?: unknown } | null)?.id
  return typeof id === "number" ? id : undefined
}

/**
 * One page of `items` (in id order) after `position`, and the position of the next page, if any.
 * Lists whose items show an id are paged by that id, so that items added meanwhile never make a
 * page repeat or skip one listed before; the activity lists (`id: null`) by count.
 */
const pageOf = (items: ReadonlyArray<unknown>, position: ListPosition | undefined, limit: number) => {
  const byId = items.every((item) => idOf(item) !== undefined)
  const rest = position === undefined
    ? items
    : "after" in position
    ? items.filter((item) => (idOf(item) ?? 0) > position.after)
    : items.slice(position.skip)
  const page = rest.slice(0, limit)
  if (rest.length <= limit || page.length === 0) return { page, next: undefined }
  const skipped = position !== undefined && "skip" in position ? position.skip : 0
  const next: ListPosition = byId ? { after: idOf(page.at(-1))! } : { skip: skipped + limit }
  return { page, next }
}

/** The request's own path and query, with `cursor` replaced: a relative reference (RFC 8288 §3.2). */
const linkTo = (url: URL, cursor: string, limit: number) => {
  const query = new URLSearchParams(url.searchParams)
  query.set("limit", String(limit))
  query.set("cursor", cursor)
  return `<${url.pathname}?${query}>; rel="next"`
}

/** 400 naming the paging parameter `name`. */
const refused = (name: string, message: string) =>
  Effect.flatMap(
    requestPath,
    (instance) =>
      Effect.fail(new InvalidRequest({ detail: `${name}: ${message}`, instance, errors: [{ field: name, message }] }))
  )

/** A paging parameter decoded with its schema; a value it refuses: 400 naming the parameter. */
const decodeParameter = <A>(name: string, schema: Schema.Codec<A, string>, text: string) =>
  Schema.decodeUnknownEffect(schema)(text).pipe(
    Effect.catch((issue) => refused(name, String(issue.message ?? issue)))
  )

/** The position a cursor of ours names; any other cursor, an edited one included: 400 naming `cursor`. */
const positionOfCursor = (cursors: CursorSeal["Service"], text: string) =>
  Effect.flatMap(
    decodeParameter("cursor", ListCursor, text),
    (cursor) =>
      openCursor(cursors, cursor, readListPosition).pipe(Effect.catch((invalid) => refused("cursor", invalid.reason)))
  )

/** One generator function for every paged request (docs/DECISIONS.md, "No generator function made per request"). */
const paged = Effect.fnUntraced(function*<E, R>(
  cursors: CursorSeal["Service"],
  request: HttpServerRequest.HttpServerRequest,
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) {
  const url = new URL(request.url, "http://localhost")
  const limitText = url.searchParams.get("limit")
  const cursor = url.searchParams.get("cursor")
  if (limitText === null && cursor === null) return yield* httpEffect
  const limit = limitText === null ? defaultPageLimit : yield* decodeParameter("limit", LimitParameter, limitText)
  const position = cursor === null
    ? undefined
    : yield* positionOfCursor(cursors, cursor)
  const response = yield* httpEffect
  if (response.status !== 200) return response
  const bytes = yield* bytesOf(response)
  if (bytes === undefined) return response
  const items = JSON.parse(new TextDecoder().decode(bytes)) as unknown
  if (!Array.isArray(items)) return response
  const { next, page } = pageOf(items, position, limit)
  const answer = HttpServerResponse.text(JSON.stringify(page), { contentType: "application/json" })
  return next === undefined
    ? answer
    : HttpServerResponse.setHeader(answer, "link", linkTo(url, cursors.seal(listPositionText(next)), limit))
})

/**
 * The seed's lists, paged when asked (see the contract's `Paged`). The handler answers the whole
 * list; the page is cut from
 * it here, so every list gets the same paging from one place. The parameters are decoded before
 * the list is read. The list is still read whole: one
 * read, as without paging, and no more. A request without a query (most of them) goes straight to
 * the handler, its URL not parsed.
 */
export const PagedLive = Layer.effect(
  Paged,
  Effect.gen(function*() {
    const cursors = yield* CursorSeal
    return (httpEffect) =>
      Effect.flatMap(
        Effect.service(HttpServerRequest.HttpServerRequest),
        (request) => request.url.includes("?") ? paged(cursors, request, httpEffect) : httpEffect
      )
  })
)
