import { Result, Schema } from "effect"
import { Base64Url } from "effect/encoding"
import { AthleteId, CoachId, SessionId } from "./Ids.ts"
import { LocalDateTime } from "./LocalDateTime.ts"
import { Session } from "./Session.ts"
import { ShortText } from "./Text.ts"

/** Sessions per page when the caller names no `limit`. */
export const defaultPageLimit = 50
/** The largest page a caller may ask for. */
export const maxPageLimit = 500

/** How many sessions a page holds at most: 1 to `maxPageLimit`. */
export const PageLimit = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: maxPageLimit })
).annotate({ description: `At most this many items (1 to ${maxPageLimit}; ${defaultPageLimit} when absent).` })

/**
 * Where a page of sessions ends, in their order (`creneau`, then `id`; a session without a
 * `creneau` comes before every other): the next page starts after this one.
 */
export interface SessionPosition {
  readonly creneau: LocalDateTime | null
  readonly id: SessionId
}

const positionJson = Schema.Tuple([Schema.NullOr(LocalDateTime), SessionId])

const readPosition = (cursor: string): SessionPosition | undefined => {
  if (!/^[A-Za-z0-9_-]+$/u.test(cursor)) return undefined
  const text = Base64Url.decodeString(cursor)
  if (Result.isFailure(text)) return undefined
  try {
    const decoded = Schema.decodeUnknownOption(positionJson)(JSON.parse(text.success))
    return decoded._tag === "Some" ? { creneau: decoded.value[0], id: decoded.value[1] } : undefined
  } catch {
    return undefined
  }
}

/** The opaque cursor of a position: base64url of its JSON, which callers must not rely on. */
export const cursorOf = (position: SessionPosition): string =>
  Base64Url.encode(JSON.stringify([position.creneau, position.id]))

/** An opaque cursor, as a page's `nextCursor` gave it. */
export const PageCursor = Schema.String.check(
  Schema.makeFilter((cursor: string) => readPosition(cursor) !== undefined, {
    expected: "a cursor as a page's nextCursor gave it",
    toJsonSchema: () => ({ pattern: "^[A-Za-z0-9_-]+$" })
  })
).pipe(Schema.brand("PageCursor"))
export type PageCursor = typeof PageCursor.Type

/** The position a cursor stands for (a `PageCursor` has been checked to name one). */
export const positionOf = (cursor: PageCursor): SessionPosition => readPosition(cursor)!

/** The filters of a planning listing; every one given must hold. */
export const SessionQueryFields = {
  from: Schema.optionalKey(
    LocalDateTime.annotate({ description: "Sessions whose `creneau` is at or after this local date-time." })
  ),
  to: Schema.optionalKey(
    LocalDateTime.annotate({ description: "Sessions whose `creneau` is before this local date-time." })
  ),
  coachId: Schema.optionalKey(CoachId.annotate({ description: "Sessions of this coach." })),
  groupe: Schema.optionalKey(ShortText.annotate({ description: "Sessions of this group (exact match)." })),
  athleteId: Schema.optionalKey(AthleteId.annotate({ description: "Sessions this athlete takes part in." }))
}
export class SessionQuery extends Schema.Class<SessionQuery>("SessionQuery")(SessionQueryFields) {}

/** One page of a listing: its sessions and where the next starts (null on the last page). */
export class SessionPage extends Schema.Class<SessionPage>("SessionPage")({
  items: Schema.Array(Session),
  nextCursor: Schema.NullOr(Schema.String)
}) {}
