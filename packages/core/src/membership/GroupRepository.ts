import { Context, type Effect, type Option } from "effect"
import type { EntityNotFound, InvalidValue, MembershipConflict, UnknownReferences } from "../shared/Errors.ts"
import type { AthleteId, CoachId, GroupId, MembershipId } from "../shared/Ids.ts"
import type { CalendarDate } from "../shared/LocalDateTime.ts"
import type { Group, GroupCreate, GroupUpdate, Membership, MembershipStart } from "./Group.ts"

/** A keyset page's request: the items after the id `after` (0: from the first), in id order, at most `limit`. */
export interface IdRange {
  readonly after: number
  readonly limit: number
}

/**
 * The club's groups and their dated memberships (issue 41, docs/membership.md). Every read is one
 * statement, bounded by its `limit`; every write one transaction. A group's `coachIds` are
 * answered ascending.
 */
export class GroupRepository extends Context.Service<GroupRepository, {
  /**
   * A new group. The first is the root and has no parent; any later one names an existing parent
   * (`parentId` null when a root exists: `InvalidValue`; an unknown parent: `UnknownReferences`).
   * Unknown coaches: `UnknownReferences` naming `coachIds`. A name another group has:
   * `MembershipConflict` naming `name`.
   */
  create(input: GroupCreate): Effect.Effect<Group, UnknownReferences | InvalidValue | MembershipConflict>
  findById(id: GroupId): Effect.Effect<Option.Option<Group>>
  /** The groups after `range.after`, in id order. */
  list(range: IdRange): Effect.Effect<ReadonlyArray<Group>>
  /**
   * Changes the fields given, in one transaction. A new name is carried by every session and series
   * whose `groupe` was the old name (their revisions one more), so they stay in the group; a name
   * another group has: `MembershipConflict`. A move names an existing parent (`UnknownReferences`),
   * never the group itself (`InvalidValue`) nor a group below it (`MembershipConflict`), both naming
   * `parentId`; moves are serialized, so two moves at once cannot make a cycle. `coachIds` replaces
   * the coaches (unknown ones: `UnknownReferences`). Nothing when there is no such group.
   */
  update(
    id: GroupId,
    change: GroupUpdate
  ): Effect.Effect<Option.Option<Group>, UnknownReferences | InvalidValue | MembershipConflict>
  /**
   * Deletes a group that has neither subgroups nor memberships (ended ones included: the history is
   * kept), else `MembershipConflict`; false when there is no such group.
   */
  remove(id: GroupId): Effect.Effect<boolean, MembershipConflict>
  /**
   * The coaches of the group and of every group above it, ascending, in one statement (what
   * `membership.manage` checks); nothing when there is no such group.
   */
  coachesAbove(id: GroupId): Effect.Effect<Option.Option<ReadonlyArray<CoachId>>>
  /** The groups `coachId` coaches, in id order, at most `limit`. */
  ofCoach(coachId: CoachId, limit: number): Effect.Effect<ReadonlyArray<Group>>
  /** The groups `athleteId` is a member of on `day`, in id order, at most `limit`. */
  ofMemberOn(athleteId: AthleteId, day: CalendarDate, limit: number): Effect.Effect<ReadonlyArray<Group>>

  /**
   * A membership of the athlete in the group from `input.from`, open-ended. An unknown athlete:
   * `UnknownReferences` naming `athleteId`; an unknown group: `EntityNotFound`. One that would
   * share a day with another membership of that athlete in that group: `MembershipConflict`
   * naming `from` (the store refuses it, also against a writer committing meanwhile).
   */
  start(
    groupId: GroupId,
    input: MembershipStart
  ): Effect.Effect<Membership, UnknownReferences | EntityNotFound | MembershipConflict>
  findMembership(id: MembershipId): Effect.Effect<Option.Option<Membership>>
  /**
   * Sets the membership's `until`, once: an ended one: `MembershipConflict`; an `until` before its
   * `from`: `InvalidValue`, both naming `until`. Nothing when there is no such membership.
   */
  end(
    id: MembershipId,
    until: CalendarDate
  ): Effect.Effect<Option.Option<Membership>, MembershipConflict | InvalidValue>
  /** The memberships of the group whose days contain `day`, in id order; nothing when there is no such group. */
  roster(groupId: GroupId, day: CalendarDate, range: IdRange): Effect.Effect<Option.Option<ReadonlyArray<Membership>>>
  /** Every membership of the group, ended ones included, in id order; nothing when there is no such group. */
  history(groupId: GroupId, range: IdRange): Effect.Effect<Option.Option<ReadonlyArray<Membership>>>
  /** Every membership of the athlete, in every group, in id order; nothing when there is no such athlete. */
  ofAthlete(athleteId: AthleteId, range: IdRange): Effect.Effect<Option.Option<ReadonlyArray<Membership>>>
}>()("@club/core/GroupRepository") {}
