import { Result, Schema } from "effect"
import { Base64Url } from "effect/encoding"
import { AthleteId, CoachId, SessionId } from "./Ids.ts"

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

const readPosition = (cursor: string): DoubleBookingPosition | undefined => {
  if (!/^[A-Za-z0-9_-]+$/u.test(cursor)) return undefined
  const text = Base64Url.decodeString(cursor)
  if (Result.isFailure(text)) return undefined
  try {
    const decoded = Schema.decodeUnknownOption(positionJson)(JSON.parse(text.success))
    if (decoded._tag === "None") return undefined
    const [sessionId, otherSessionId, kind, personId] = decoded.value
    return { sessionId, otherSessionId, kind, personId }
  } catch {
    return undefined
  }
}

/** The opaque cursor of a position: base64url of its JSON, which callers must not rely on. */
export const bookingCursorOf = (position: DoubleBookingPosition): string =>
  Base64Url.encode(JSON.stringify([position.sessionId, position.otherSessionId, position.kind, position.personId]))

/** An opaque cursor of the double bookings, as a page's `nextCursor` gave it. */
export const DoubleBookingCursor = Schema.String.check(
  Schema.makeFilter((cursor: string) => readPosition(cursor) !== undefined, {
    expected: "a cursor as a page's nextCursor gave it",
    toJsonSchema: () => ({ pattern: "^[A-Za-z0-9_-]+$" })
  })
).pipe(Schema.brand("DoubleBookingCursor"))
export type DoubleBookingCursor = typeof DoubleBookingCursor.Type

/** The position a cursor stands for (a `DoubleBookingCursor` has been checked to name one). */
export const bookingPositionOf = (cursor: DoubleBookingCursor): DoubleBookingPosition => readPosition(cursor)!

/** One page of double bookings and where the next starts (null on the last page). */
export class DoubleBookingPage extends Schema.Class<DoubleBookingPage>("DoubleBookingPage")({
  items: Schema.Array(DoubleBooking),
  nextCursor: Schema.NullOr(Schema.String)
}) {}
