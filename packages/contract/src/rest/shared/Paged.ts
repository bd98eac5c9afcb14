import { CursorText, defaultPageLimit, maxPageLimit, parsedJson } from "@club/core"
import { Schema } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { InvalidRequest } from "./Problems.ts"

/**
 * Where a page of one of the seed's lists ends: after the item of this id (the lists are in id
 * order), or, for the activity lists whose items show no id (`id: null`), after this many items.
 */
export type ListPosition = { readonly after: number } | { readonly skip: number }

const ListPositionJson = Schema.Union([
  Schema.Struct({ after: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) }),
  Schema.Struct({ skip: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) })
])

const decodeListPosition = Schema.decodeUnknownOption(ListPositionJson)

/** The position a sealed cursor's text names; undefined for any other text. */
export const readListPosition = (text: string): ListPosition | undefined => {
  const decoded = decodeListPosition(parsedJson(text))
  return decoded._tag === "Some" ? decoded.value : undefined
}

/** A position in one of the seed's lists as the text its cursor seals (callers see only the sealed cursor). */
export const listPositionText = (position: ListPosition): string => JSON.stringify(position)

/** A cursor of one of the seed's lists, as its `Link: rel="next"` gave it (sealed: `openCursor` reads it). */
export const ListCursor = CursorText

/** The query parameters of a paged seed list, as the OpenAPI document gives them (`completeDocument`). */
export const listPagingParameters = [
  {
    name: "limit",
    in: "query",
    required: false,
    description:
      `Paging (optional): at most this many items, from 1 to ${maxPageLimit} (${defaultPageLimit} when only \`cursor\` is given). Without \`limit\` and \`cursor\` the whole list is answered, as the seed says; with either, the same array cut to one page, and \`Link: <...>; rel="next"\` (RFC 8288) gives the next page while there is one. Out of range: 400 naming \`limit\`.`,
    schema: { type: "integer", minimum: 1, maximum: maxPageLimit }
  },
  {
    name: "cursor",
    in: "query",
    required: false,
    description:
      "Paging (optional): where the page starts, as the previous page's `Link: rel=\"next\"` gave it. Any other value: 400 naming `cursor`.",
    schema: { type: "string", pattern: "^[A-Za-z0-9_-]+$" }
  }
]

/** The `Link` header of a paged seed list's answer. */
export const listLinkHeader = {
  description:
    "With `limit` or `cursor`, while another page follows: `<path?limit=...&cursor=...>; rel=\"next\"` (RFC 8288).",
  required: false,
  schema: { type: "string" }
}

/**
 * Optional paging of the seed's lists: with `limit` or `cursor` in the query, the list answered
 * is cut to one page, and a `Link: <...>; rel="next"` header gives the next page while there is
 * one; without either the answer is exactly the seed's. Added to each list endpoint. The
 * parameters are read by the middleware, not declared in the endpoints' query schemas, so that
 * the SDK's calls of these lists keep their seed signatures; the OpenAPI document lists them on
 * the operations that take them (`completeDocument`). A value that does not decode: 400 naming it.
 */
export class Paged extends HttpApiMiddleware.Service<Paged>()("@club/contract/Paged", { error: InvalidRequest }) {}
