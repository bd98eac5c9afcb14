import { Schema } from "effect"
import { AthleteId, CoachId, GroupId, MembershipId, UserId } from "../shared/Ids.ts"
import { CalendarDate } from "../shared/LocalDateTime.ts"
import { BoundedArray, isMinCharacters, ShortText } from "../shared/Text.ts"
import type { NewEvent } from "../webhooks/Webhook.ts"

/**
 * A group's name: the value a session's or a series' `groupe` carries to belong to the group
 * (docs/membership.md). Compared exactly, as `groupe` is.
 */
export const GroupName = ShortText.check(isMinCharacters(1))

/** A group of the club's tree: one root (the club), sections and teams under it; its coaches act on its sessions. */
export class Group extends Schema.Class<Group>("Group")({
  id: GroupId,
  name: GroupName,
  /** null for the root, the club itself; every other group has a parent. */
  parentId: Schema.NullOr(GroupId),
  /** The coaches of this group; a coach of a group also acts on the sessions of the groups under it. */
  coachIds: Schema.Array(CoachId)
}) {}

export class GroupCreate extends Schema.Class<GroupCreate>("GroupCreate")({
  name: GroupName,
  /** null only for the first group, the root. */
  parentId: Schema.NullOr(GroupId),
  coachIds: BoundedArray(CoachId)
}) {}

/** A key left out keeps its value. */
export class GroupUpdate extends Schema.Class<GroupUpdate>("GroupUpdate")({
  name: Schema.optionalKey(GroupName),
  parentId: Schema.optionalKey(GroupId),
  coachIds: Schema.optionalKey(BoundedArray(CoachId))
}) {}

/**
 * An athlete's membership of a group over the days `from` to `until`, both included; `until` null:
 * open-ended. A membership is ended (its `until` set once), never rewritten; a later return is a
 * new membership. Two memberships of one athlete in one group never share a day.
 */
export class Membership extends Schema.Class<Membership>("Membership")({
  id: MembershipId,
  groupId: GroupId,
  athleteId: AthleteId,
  from: CalendarDate,
  until: Schema.NullOr(CalendarDate)
}) {}

export class MembershipStart extends Schema.Class<MembershipStart>("MembershipStart")({
  athleteId: AthleteId,
  from: CalendarDate
}) {}

export class MembershipEnd extends Schema.Class<MembershipEnd>("MembershipEnd")({
  /** The last day of the membership; not before its `from`. */
  until: CalendarDate
}) {}

/**
 * The outbox event of a membership started or ended (issue 41): delivered to webhooks like the
 * attendance events, in order per group; its data is the membership as it is after the change.
 */
export const membershipEvent = (
  type: "membershipStarted" | "membershipEnded",
  membership: Membership
): NewEvent => ({
  sessionId: null,
  groupId: membership.groupId,
  type,
  data: {
    membershipId: membership.id,
    athleteId: membership.athleteId,
    from: membership.from,
    until: membership.until
  }
})

/** A user who answers for an athlete (a parent of a minor): reads its schedule and feed, replies for it. */
export class Guardianship extends Schema.Class<Guardianship>("Guardianship")({
  userId: UserId,
  athleteId: AthleteId
}) {}
