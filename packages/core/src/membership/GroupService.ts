import { Clock, Context, Effect, Layer } from "effect"
import { wallClockAt } from "../shared/clubTime.ts"
import { CursorSeal } from "../shared/CursorSeal.ts"
import { EntityNotFound } from "../shared/Errors.ts"
import type { GroupId } from "../shared/Ids.ts"
import type { CalendarDate } from "../shared/LocalDateTime.ts"
import { authorize } from "../shared/Permissions.ts"
import { found } from "../shared/found.ts"
import { traced } from "../shared/traced.ts"
import { ScheduleSettings } from "../series/ScheduleSettings.ts"
import type { Actor } from "../shared/Actor.ts"
import type { Group, GroupCreate, GroupUpdate } from "./Group.ts"
import { GroupRepository } from "./GroupRepository.ts"
import { idPageOf, type IdPageRequest, idRangeOf } from "./IdPage.ts"

/** The most groups `GET /auth/me` answers for one caller (the groups a coach coaches, an athlete's). */
export const maxGroupsOfCaller = 200

/** Today on the club's calendar (CLUB_TIMEZONE): the default day of a roster, and of `/auth/me`'s groups. */
export const clubToday = Effect.gen(function*() {
  const settings = yield* ScheduleSettings
  const now = yield* Clock.currentTimeMillis
  return wallClockAt(settings.timeZone, now).slice(0, 10) as CalendarDate
})

/**
 * The caller's groups, for `/auth/me`: a coach's, the groups it coaches; an athlete user's, the
 * groups its athlete is a member of on the club's today; none for others. At most
 * `maxGroupsOfCaller`, in id order, one statement. No rule of its own: it answers the caller about
 * itself, as `/auth/me` does.
 */
export const groupsOfCaller = Effect.fnUntraced(function*(repository: GroupRepository["Service"], actor: Actor) {
  if (actor.role === "COACH" && actor.coachId !== null) {
    return yield* repository.ofCoach(actor.coachId, maxGroupsOfCaller)
  }
  if (actor.role === "ATHLETE" && actor.athleteId !== null) {
    return yield* repository.ofMemberOn(actor.athleteId, yield* clubToday, maxGroupsOfCaller)
  }
  return [] as ReadonlyArray<Group>
})

const make = Effect.gen(function*() {
  const repository = yield* GroupRepository
  const cursors = yield* CursorSeal

  return {
    /** A group of the club's tree (admins); see `GroupRepository.create` for what is refused. */
    create: traced("GroupService.create")(function*(input: GroupCreate) {
      yield* authorize("group.create")
      return yield* repository.create(input)
    }),
    get: traced("GroupService.get")(function*(id: GroupId) {
      yield* authorize("group.read")
      return yield* repository.findById(id).pipe(found("Group", id))
    }),
    /** The groups in id order, a page at a time. */
    list: traced("GroupService.list")(function*(request: IdPageRequest) {
      yield* authorize("group.read")
      const range = yield* idRangeOf(cursors, request)
      return idPageOf(cursors, yield* repository.list(range), range)
    }),
    /** Renames (the group's sessions and series follow), moves, or replaces the coaches of a group (admins). */
    update: traced("GroupService.update")(function*(id: GroupId, change: GroupUpdate) {
      yield* authorize("group.update")
      return yield* repository.update(id, change).pipe(found("Group", id))
    }),
    /** Deletes a group without subgroups or memberships (admins). */
    remove: traced("GroupService.remove")(function*(id: GroupId) {
      yield* authorize("group.delete")
      if (!(yield* repository.remove(id))) return yield* new EntityNotFound({ entity: "Group", id })
    })
  }
})

/** The club's groups (issue 41, docs/membership.md). */
export class GroupService extends Context.Service<GroupService, Effect.Success<typeof make>>()(
  "@club/core/GroupService"
) {
  static readonly layer = Layer.effect(GroupService, make)
}
