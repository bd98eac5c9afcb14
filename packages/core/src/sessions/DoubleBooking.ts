import { Schema } from "effect"
import { parsedJson } from "../shared/Cursor.ts"
import { CursorText } from "../shared/Cursor.ts"
import { AthleteId, CoachId, SessionId } from "../shared/Ids.ts"

/**
 * Two sessions that book the same coach, or the same athlete, at overlapping instants
 * (`[creneau, creneau + duree minutes)` in the club's zone): what `GET /planning/conflicts` lists,
 * so that a club can clean up before the seed's endpoints refuse them.
 */
export class DoubleBooking extends Schema.Class<DoubleBooking>("DoubleBooking")({
  /** The smaller id of the two. */
  sessionId: SessionId,
  otherSessionId: SessionId,
  /** The coach booked twice, or null when it is an athlete. */
  coachId: Schema.NullOr(CoachId),
  /** The athlete booked twice, or null when it is the coach. */
  athleteId: Schema.NullOr(AthleteId)
}) {}

/**
 * Where a page of double bookings ends, in their order: by session, other session, then the coach
 * (`kind` 0) before the athletes (`kind` 1, by id). The next page starts after it.
 */
export interface DoubleBookingPosition {
  readonly sessionId: number
  readonly otherSessionId: number
  readonly kind: 0 | 1
  readonly personId: number
}

/** The position of a double booking, as a page's last item gives it. */
export const positionOfBooking = (booking: DoubleBooking): DoubleBookingPosition => ({
  sessionId: booking.sessionId,
  otherSessionId: booking.otherSessionId,
  kind: booking.coachId === null ? 1 : 0,
  personId: booking.coachId ?? booking.athleteId ?? 0
})

const positionJson = Schema.Tuple([SessionId, SessionId, Schema.Literals([0, 1]), Schema.Int])
const decodePosition = Schema.decodeUnknownOption(positionJson)

/** The position a sealed cursor's text names; undefined for any other text. */
export const readBookingPosition = (text: string): DoubleBookingPosition | undefined => {
  const decoded = decodePosition(parsedJson(text))
  if (decoded._tag === "None") return undefined
  const [sessionId, otherSessionId, kind, personId] = decoded.value
  return { sessionId, otherSessionId, kind, personId }
}

/** A position as the text a cursor seals (callers see only the sealed cursor). */
export const bookingPositionText = (position: DoubleBookingPosition): string =>
  JSON.stringify([position.sessionId, position.otherSessionId, position.kind, position.personId])

/** An opaque cursor of the double bookings, as a page's `nextCursor` gave it (sealed: `openCursor` reads it). */
export const DoubleBookingCursor = CursorText.pipe(Schema.brand("DoubleBookingCursor"))
export type DoubleBookingCursor = typeof DoubleBookingCursor.Type

/** One page of double bookings and where the next starts (null on the last page). */
export class DoubleBookingPage extends Schema.Class<DoubleBookingPage>("DoubleBookingPage")({
  items: Schema.Array(DoubleBooking),
  nextCursor: Schema.NullOr(Schema.String)
}) {}
