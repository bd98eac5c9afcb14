import { Effect } from "effect"
import { openCursor } from "../shared/Cursor.ts"
import type { CursorSeal } from "../shared/CursorSeal.ts"
import { defaultPageLimit } from "../sessions/SessionPage.ts"
import type { IdRange } from "./GroupRepository.ts"

/** One page of a list in id order, and the cursor of the next page (null on the last). */
export interface IdPage<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

/** What a caller asks of a list paged by id: at most `limit` items (`defaultPageLimit` when absent), after `cursor`. */
export interface IdPageRequest {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** The id a sealed cursor's text names: a positive integer; undefined for any other text. */
const readId = (text: string): number | undefined => /^[1-9][0-9]{0,15}$/u.test(text) ? Number(text) : undefined

/**
 * The range to read for `request`: one item more than the page, so that the page knows whether
 * another follows without a second statement. A cursor the API did not give: 400 naming `cursor`.
 */
export const idRangeOf = (cursors: CursorSeal["Service"], request: IdPageRequest) =>
  Effect.map(
    request.cursor === undefined ? Effect.succeed(0) : openCursor(cursors, request.cursor, readId),
    (after): IdRange => ({ after, limit: (request.limit ?? defaultPageLimit) + 1 })
  )

/** The page of `read` (as `idRangeOf`'s range read it): its first `range.limit - 1` items, and the next cursor. */
export const idPageOf = <A extends { readonly id: number }>(
  cursors: CursorSeal["Service"],
  read: ReadonlyArray<A>,
  range: IdRange
): IdPage<A> => {
  const items = read.slice(0, range.limit - 1)
  const last = items.at(-1)
  return {
    items,
    nextCursor: read.length >= range.limit && last !== undefined ? cursors.seal(String(last.id)) : null
  }
}
