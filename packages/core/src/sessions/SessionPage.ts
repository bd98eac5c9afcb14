import { Schema } from "effect"
import { CursorText, parsedJson } from "../shared/Cursor.ts"
import { AthleteId, CoachId, SessionId } from "../shared/Ids.ts"
import { LocalDateTime } from "../shared/LocalDateTime.ts"
import { Session } from "./Session.ts"
import { ShortText } from "../shared/Text.ts"

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
const decodePosition = Schema.decodeUnknownOption(positionJson)

/** The position a sealed cursor's text names; undefined for any other text. */
export const readSessionPosition = (text: string): SessionPosition | undefined => {
  const decoded = decodePosition(parsedJson(text))
  return decoded._tag === "Some" ? { creneau: decoded.value[0], id: decoded.value[1] } : undefined
}

/** A position as the text a cursor seals (callers see only the sealed cursor). */
export const sessionPositionText = (position: SessionPosition): string =>
  JSON.stringify([position.creneau, position.id])

/** An opaque cursor, as a page's `nextCursor` gave it (sealed: `openCursor` reads it). */
export const PageCursor = CursorText.pipe(Schema.brand("PageCursor"))
export type PageCursor = typeof PageCursor.Type

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
