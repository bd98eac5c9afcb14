import { Context, type Effect, type Option } from "effect"
import type { AthleteId, SessionId } from "../shared/Ids.ts"
import type { CalendarDate, LocalDateTime } from "../shared/LocalDateTime.ts"
import type { SessionPosition } from "../sessions/SessionPage.ts"
import type { InvitedAthlete, InvitedSession } from "./Invitation.ts"

/**
 * Who a session invites and whose a session is by group (issue 41, docs/membership.md): reads
 * over groups and memberships, each one statement whatever the club's size.
 */
export class InvitationRepository extends Context.Service<InvitationRepository, {
  /**
   * The coaches of the group whose name `groupe` is, and of every group above it, each once (what
   * `OwnedRecord.groupCoachIds` holds); none for a label that names no group, or null. One
   * recursive statement.
   */
  groupCoachIds(groupe: string | null): Effect.Effect<ReadonlyArray<number>>
  /**
   * The athletes invited to the session (its athletes, and the members of its group on its day; a
   * session without a creneau: `today`), in athlete id order, after `after`, at most `limit`; none
   * for an unknown session. One statement.
   */
  invited(
    sessionId: SessionId,
    today: CalendarDate,
    after: AthleteId | null,
    limit: number
  ): Effect.Effect<Option.Option<ReadonlyArray<InvitedAthlete>>>
  /**
   * The sessions whose creneau is in `[from, until)` the athlete is invited to (as one of their
   * athletes, or as a member of their group on their day), in (`creneau`, id) order, after
   * `after`, at most `limit`. One statement.
   */
  sessionsOf(
    athleteId: AthleteId,
    from: LocalDateTime,
    until: LocalDateTime,
    after: SessionPosition | undefined,
    limit: number
  ): Effect.Effect<ReadonlyArray<InvitedSession>>
}>()("@club/core/InvitationRepository") {}
