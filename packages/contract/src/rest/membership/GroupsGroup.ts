import {
  AthleteId,
  CalendarDate,
  defaultPageLimit,
  Group,
  GroupCreate,
  GroupId,
  GroupUpdate,
  maxPageLimit,
  Membership,
  MembershipEnd,
  MembershipId,
  MembershipStart,
  PageCursor
} from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { created, idempotent, noContent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { LimitParameter } from "../shared/LimitParameter.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

const groupExample = { id: 2, name: "U12", parentId: 1, coachIds: [3] }
const membershipExample = { id: 5, groupId: 2, athleteId: 7, from: "2027-01-09", until: null }

export const GroupDto = documented(
  Schema.Struct(Group.fields),
  "Group",
  "A group of the club's tree: its name (the value a session's `groupe` carries to belong to it), its parent (null for the root, the club itself) and its coaches, ascending.",
  [groupExample]
)

export const GroupCreateBody = documented(
  Schema.Struct(GroupCreate.fields),
  "GroupCreate",
  "A new group: its name, its parent (null only for the first group, the root) and its coaches.",
  [{ name: "U12", parentId: 1, coachIds: [3] }]
)

export const GroupUpdateBody = documented(
  Schema.Struct(GroupUpdate.fields),
  "GroupUpdate",
  "The keys that change: `name` (the group's sessions and series follow), `parentId` (a move), `coachIds` (the whole list). A key left out keeps its value.",
  [{ name: "U13" }, { parentId: 4 }, { coachIds: [3, 8] }]
)

export const MembershipDto = documented(
  Schema.Struct(Membership.fields),
  "Membership",
  "An athlete in a group over the days `from` to `until`, both included, on the club's calendar; `until` null: open-ended.",
  [membershipExample, { ...membershipExample, id: 4, from: "2026-09-01", until: "2026-12-20" }]
)

export const MembershipStartBody = documented(
  Schema.Struct(MembershipStart.fields),
  "MembershipStart",
  "The athlete and the membership's first day.",
  [{ athleteId: 7, from: "2027-01-09" }]
)

export const MembershipEndBody = documented(
  Schema.Struct(MembershipEnd.fields),
  "MembershipEnd",
  "The membership's last day, included; not before its `from`.",
  [{ until: "2027-06-30" }]
)

const nextCursor = Schema.NullOr(Schema.String).annotate({
  description: "The `cursor` of the next page; null on the last page."
})

export const GroupPageDto = documented(
  Schema.Struct({ items: Schema.Array(GroupDto), nextCursor }),
  "GroupPage",
  "One page of groups in id order, and the cursor of the next page.",
  [{ items: [groupExample], nextCursor: null }]
)

export const MembershipPageDto = documented(
  Schema.Struct({ items: Schema.Array(MembershipDto), nextCursor }),
  "MembershipPage",
  "One page of memberships in id order, and the cursor of the next page.",
  [{ items: [membershipExample], nextCursor: null }]
)

/** The paging of every list of the group: at most `limit` items, after `cursor`. */
const paging = {
  limit: Schema.optionalKey(LimitParameter.annotate({
    description: `At most this many items, from 1 to ${maxPageLimit} (${defaultPageLimit} when absent).`
  })),
  cursor: Schema.optionalKey(PageCursor.annotate({
    description: "Where the page starts: the `nextCursor` of the page before (absent: the first page)."
  }))
}

const paged =
  `At most \`limit\` (${defaultPageLimit} by default, at most ${maxPageLimit}) a page, in id order; follow \`nextCursor\` for the next. Paging is by key, so items added meanwhile never make a page repeat or skip one. One bounded statement a page. A parameter that does not parse (a \`limit\` out of range, a cursor not given by this API): 400 naming it.`

const groupId = { id: pathId(GroupId) }

/**
 * Issue 41's groups and memberships. The paths keep clear of the seed's root coach paths
 * (`/{id}`): every one starts with `/groups` or `/memberships`, and an id stands only where the
 * path has one (docs/decisions/0221).
 */
export class GroupsGroup extends HttpApiGroup.make("groups").add(
  HttpApiEndpoint.post("createGroup", "/groups", {
    payload: GroupCreateBody,
    success: created(GroupDto),
    error: [InvalidRequest, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create a group",
    `The first group is the root (the club itself) and has \`parentId\` null; every later one names an existing parent (400 naming \`parentId\`). Unknown coaches: 400 naming \`coachIds\`. A name another group has: 409. ${idempotent}`,
    "group.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("groups", "/groups", {
    query: paging,
    success: GroupPageDto,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation("List groups", `Every group of the club. ${paged}`, "group.read")),
  HttpApiEndpoint.get("group", "/groups/:id", {
    params: groupId,
    success: GroupDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation("Read a group", "404 when there is no such group.", "group.read")),
  HttpApiEndpoint.patch("updateGroup", "/groups/:id", {
    params: groupId,
    payload: GroupUpdateBody,
    success: GroupDto,
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Rename, move a group or name its coaches",
    `Changes the keys given, in one transaction. A rename carries every session and series whose \`groupe\` was the old name to the new one (their revisions one more), so they stay in the group; a name another group has: 409. A move names an existing parent (400 naming \`parentId\`), never the group itself (400) nor a group below it (409 naming \`parentId\`). \`coachIds\` replaces the coaches (unknown ones: 400 naming \`coachIds\`). 404 when there is no such group. ${idempotent}`,
    "group.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("deleteGroup", "/groups/:id", {
    params: groupId,
    success: noContent("Deleted."),
    error: [NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Delete a group",
    `409 while it has subgroups or memberships (ended ones included: its history is kept). 404 when there is no such group. ${idempotent}`,
    "group.delete"
  )).middleware(Idempotency),
  HttpApiEndpoint.post("startMembership", "/groups/:id/memberships", {
    params: groupId,
    payload: MembershipStartBody,
    success: created(MembershipDto),
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Start a membership",
    `The athlete is a member of the group from \`from\` on, open-ended. 409 naming \`from\` when it would share a day with another membership of that athlete in the group (the database refuses it, also against another writer). An unknown athlete: 400 naming \`athleteId\`; 404 when there is no such group. ${idempotent}`,
    "membership.manage"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("groupMemberships", "/groups/:id/memberships", {
    params: groupId,
    query: paging,
    success: MembershipPageDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "A group's membership history",
    `Every membership of the group, ended ones included. 404 when there is no such group. ${paged}`,
    "membership.read"
  )),
  HttpApiEndpoint.get("groupMembers", "/groups/:id/members", {
    params: groupId,
    query: {
      on: Schema.optionalKey(CalendarDate.annotate({
        description: "The day (`2027-03-02`); absent: the club's today (CLUB_TIMEZONE)."
      })),
      ...paging
    },
    success: MembershipPageDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "A group's members on a day",
    `The memberships of the group whose days contain \`on\`: who was, is or will be a member that day. 404 when there is no such group. ${paged}`,
    "membership.read"
  )),
  HttpApiEndpoint.post("endMembership", "/memberships/:id/end", {
    params: { id: pathId(MembershipId) },
    payload: MembershipEndBody,
    success: MembershipDto,
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "End a membership",
    `Sets its last day, once: a membership is ended, never rewritten, and a return is a new membership. 409 naming \`until\` when it has ended already; 400 naming \`until\` when it is before the membership's \`from\`. 404 when there is no such membership. ${idempotent}`,
    "membership.manage"
  )).middleware(Idempotency),
  // The athlete is a query parameter: a path `/memberships/athletes/{id}` would be ambiguous with
  // `/memberships/{id}/end` (OpenAPI's no-ambiguous-paths).
  HttpApiEndpoint.get("athleteMemberships", "/memberships", {
    query: {
      athleteId: pathId(AthleteId).annotate({ description: "The athlete whose memberships are listed." }),
      ...paging
    },
    success: MembershipPageDto,
    error: [InvalidRequest, NotFound, Forbidden]
  }).annotateMerge(operation(
    "An athlete's memberships",
    `Every membership of the athlete \`athleteId\`, in every group, ended ones included. 404 when there is no such athlete. ${paged}`,
    "membership.read"
  ))
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Groups and memberships",
  "Issue 41: the club's groups (one tree under the root), their coaches, and athletes' dated memberships. See docs/membership.md."
)) {}
