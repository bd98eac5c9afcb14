import { Schema } from "effect"
import { AthleteId, CoachId, GroupId, SessionId } from "../shared/Ids.ts"
import { LocalDateTime } from "../shared/LocalDateTime.ts"
import { PageCursor } from "../sessions/SessionPage.ts"
import { ShortText } from "../shared/Text.ts"
import { GroupName } from "./Group.ts"

/**
 * How an athlete is invited to a session: `athlete`, one of the session's own athletes; `member`,
 * a member of the session's group on its day (docs/membership.md "Sessions open to a group").
 */
export const InvitedHow = Schema.Literals(["athlete", "member"])
export type InvitedHow = typeof InvitedHow.Type

/** One athlete invited to a session, and how. */
export class InvitedAthlete extends Schema.Class<InvitedAthlete>("InvitedAthlete")({
  athleteId: AthleteId,
  /** `athlete` when it is one of the session's athletes, whether or not it is also a member. */
  how: InvitedHow,
  /** The session's group when the athlete is a member of it on the session's day; null otherwise. */
  groupId: Schema.NullOr(GroupId),
  groupName: Schema.NullOr(GroupName)
}) {}

/** One page of a session's invited athletes, in athlete id order, and where the next starts. */
export class InvitedPage extends Schema.Class<InvitedPage>("InvitedPage")({
  items: Schema.Array(InvitedAthlete),
  nextCursor: Schema.NullOr(PageCursor)
}) {}

/** A session an athlete is invited to, and how. */
export class InvitedSession extends Schema.Class<InvitedSession>("InvitedSession")({
  sessionId: SessionId,
  name: Schema.NullOr(ShortText),
  creneau: LocalDateTime,
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId),
  how: InvitedHow
}) {}

/** One page of an athlete's sessions, in (`creneau`, id) order, and where the next starts. */
export class InvitedSessionPage extends Schema.Class<InvitedSessionPage>("InvitedSessionPage")({
  items: Schema.Array(InvitedSession),
  nextCursor: Schema.NullOr(PageCursor)
}) {}
