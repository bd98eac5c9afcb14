import { Schema } from "effect"
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
