import { Context, Effect, Layer } from "effect"
import { CursorSeal } from "../shared/CursorSeal.ts"
import type { AthleteId, GroupId, MembershipId } from "../shared/Ids.ts"
import type { CalendarDate } from "../shared/LocalDateTime.ts"
import { authorize } from "../shared/Permissions.ts"
import { found } from "../shared/found.ts"
import { traced } from "../shared/traced.ts"
import type { MembershipEnd, MembershipStart } from "./Group.ts"
import { GroupRepository } from "./GroupRepository.ts"
import { clubToday } from "./GroupService.ts"
import { idPageOf, type IdPageRequest, idRangeOf } from "./IdPage.ts"

const make = Effect.gen(function*() {
  const repository = yield* GroupRepository
  const cursors = yield* CursorSeal

  /**
   * `membership.manage` on the group: admins, and the coaches of the group or of a group above it
   * (one statement loads them). The role gate first, so a caller of no managing role learns nothing
   * of the group; an unknown group: 404.
   */
  const authorizeOnGroup = Effect.fnUntraced(function*(groupId: GroupId) {
    yield* authorize("membership.manage")
    const groupCoachIds = yield* repository.coachesAbove(groupId).pipe(found("Group", groupId))
    yield* authorize("membership.manage", { groupCoachIds, subject: `group ${groupId}` })
  })

  return {
    /** A membership of an athlete in the group from a day, open-ended. */
    start: traced("MembershipService.start")(function*(groupId: GroupId, input: MembershipStart) {
      yield* authorizeOnGroup(groupId)
      return yield* repository.start(groupId, input)
    }),
    /** Ends a membership on its last day, once. */
    end: traced("MembershipService.end")(function*(id: MembershipId, input: MembershipEnd) {
      yield* authorize("membership.manage")
      const membership = yield* repository.findMembership(id).pipe(found("Membership", id))
      yield* authorizeOnGroup(membership.groupId)
      return yield* repository.end(id, input.until).pipe(found("Membership", id))
    }),
    /** The memberships of the group on `on` (the club's today when absent), a page at a time. */
    roster: traced("MembershipService.roster")(
      function*(groupId: GroupId, on: CalendarDate | undefined, request: IdPageRequest) {
        yield* authorize("membership.read")
        const day = on ?? (yield* clubToday)
        const range = yield* idRangeOf(cursors, request)
        const read = yield* repository.roster(groupId, day, range).pipe(found("Group", groupId))
        return idPageOf(cursors, read, range)
      }
    ),
    /** Every membership of the group, ended ones included, a page at a time. */
    history: traced("MembershipService.history")(function*(groupId: GroupId, request: IdPageRequest) {
      yield* authorize("membership.read")
      const range = yield* idRangeOf(cursors, request)
      const read = yield* repository.history(groupId, range).pipe(found("Group", groupId))
      return idPageOf(cursors, read, range)
    }),
    /** Every membership of the athlete, a page at a time. */
    ofAthlete: traced("MembershipService.ofAthlete")(function*(athleteId: AthleteId, request: IdPageRequest) {
      yield* authorize("membership.read")
      const range = yield* idRangeOf(cursors, request)
      const read = yield* repository.ofAthlete(athleteId, range).pipe(found("Athlete", athleteId))
      return idPageOf(cursors, read, range)
    })
  }
})

/** Dated memberships of athletes in groups (issue 41, docs/membership.md "Memberships"). */
export class MembershipService extends Context.Service<MembershipService, Effect.Success<typeof make>>()(
  "@club/core/MembershipService"
) {
  static readonly layer = Layer.effect(MembershipService, make)
}
