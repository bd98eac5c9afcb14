import { GroupCreate, GroupService, GroupUpdate, MembershipEnd, MembershipService, MembershipStart } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** Issue 41's groups and memberships: every failure is its category's problem. */
export const GroupsHandlers = HttpApiBuilder.group(
  ServedApi,
  "groups",
  Effect.fn(function*(handlers) {
    const groups = yield* GroupService
    const memberships = yield* MembershipService
    return handlers
      .handle(
        "createGroup",
        ({ payload }) => groups.create(new GroupCreate(payload, { disableChecks: true })).pipe(problems)
      )
      .handle("groups", ({ query }) => groups.list(query).pipe(problems))
      .handle("group", ({ params }) => groups.get(params.id).pipe(problems))
      .handle(
        "updateGroup",
        ({ params, payload }) =>
          groups.update(params.id, new GroupUpdate(payload, { disableChecks: true })).pipe(problems)
      )
      .handle("deleteGroup", ({ params }) => groups.remove(params.id).pipe(problems))
      .handle(
        "startMembership",
        ({ params, payload }) =>
          memberships.start(params.id, new MembershipStart(payload, { disableChecks: true })).pipe(problems)
      )
      .handle("groupMemberships", ({ params, query }) => memberships.history(params.id, query).pipe(problems))
      .handle(
        "groupMembers",
        ({ params, query: { on, ...page } }) => memberships.roster(params.id, on, page).pipe(problems)
      )
      .handle(
        "endMembership",
        ({ params, payload }) =>
          memberships.end(params.id, new MembershipEnd(payload, { disableChecks: true })).pipe(problems)
      )
      .handle(
        "athleteMemberships",
        ({ query }) => memberships.ofAthlete(query.athleteId, query).pipe(problems)
      )
  })
)
