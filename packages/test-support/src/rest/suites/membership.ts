import { beforeAll, describe, expect, it } from "vitest"
import { expectJson, expectProblem, expectStatus } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import {
  callerFor,
  createAthlete,
  createCoachMember,
  type GroupDto,
  type MembershipDto,
  missingId,
  unique
} from "../records.ts"

interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

/** Issue 41's groups and dated memberships (`/groups`, `/memberships`), on any harness. */
export const membershipEndpoints = (club: () => Club) => {
  let root: GroupDto

  const patch = (path: string, json: unknown) => club().admin.send("PATCH", path, { json })

  /** A new group under `parentId` (the root by default), by an admin. */
  const createGroup = async (fields: Partial<Omit<GroupDto, "id">> = {}): Promise<GroupDto> => {
    const reply = await club().admin.post("/groups", {
      name: unique("group"),
      parentId: root.id,
      coachIds: [],
      ...fields
    })
    expectStatus(reply, 201)
    return reply.body as GroupDto
  }

  const members = async (groupId: number, on: string) =>
    ((await club().admin.get(`/groups/${groupId}/members?on=${on}`)).body as Page<MembershipDto>).items

  beforeAll(async () => {
    // The club's one root: the first group created, or the one a suite before made on this club.
    const listed = (await club().admin.get("/groups?limit=500")).body as Page<GroupDto>
    const found = listed.items.find((group) => group.parentId === null)
    if (found !== undefined) {
      root = found
      return
    }
    const created = await club().admin.post("/groups", { name: unique("Club"), parentId: null, coachIds: [] })
    expectStatus(created, 201)
    root = created.body as GroupDto
    expect(root).toEqual({ id: root.id, name: root.name, parentId: null, coachIds: [] })
  })

  describe("groups: one tree under the root", () => {
    it("creates a group under a parent with its coaches, reads it, and lists it", async () => {
      const group = await createGroup({ coachIds: [club().coachId] })
      expect(group).toEqual({ id: group.id, name: group.name, parentId: root.id, coachIds: [club().coachId] })
      expectJson(await club().athlete.get(`/groups/${group.id}`), 200, group)
      expectProblem(await club().admin.get(`/groups/${missingId}`), 404, `Group not found with id ${missingId}`)
      const listed = (await club().coach.get("/groups?limit=500")).body as Page<GroupDto>
      expect(listed.items).toContainEqual(group)
      expect(listed.items.map((g) => g.id)).toEqual(listed.items.map((g) => g.id).sort((a, b) => a - b))
    })

    it("pages the groups by key: limit and nextCursor; a cursor not given by the API: 400 naming cursor", async () => {
      await createGroup()
      const first = (await club().admin.get("/groups?limit=1")).body as Page<GroupDto>
      expect(first.items).toHaveLength(1)
      expect(first.nextCursor).not.toBeNull()
      const second = (await club().admin.get(`/groups?limit=1&cursor=${first.nextCursor}`)).body as Page<GroupDto>
      expect(second.items).toHaveLength(1)
      expect(second.items[0]!.id).toBeGreaterThan(first.items[0]!.id)
      expectProblem(await club().admin.get("/groups?cursor=bm90LWdpdmVu"), 400, /^cursor: /u)
      expectProblem(await club().admin.get("/groups?limit=0"), 400, /limit/u)
    })

    it("refuses a second root, an unknown parent or coach (400 naming them) and a name taken (409)", async () => {
      expectProblem(
        await club().admin.post("/groups", { name: unique("root"), parentId: null, coachIds: [] }),
        400,
        /^parentId: /u
      )
      expectProblem(
        await club().admin.post("/groups", { name: unique("g"), parentId: missingId, coachIds: [] }),
        400,
        /^parentId: /u
      )
      expectProblem(
        await club().admin.post("/groups", { name: unique("g"), parentId: root.id, coachIds: [missingId] }),
        400,
        /^coachIds: /u
      )
      const group = await createGroup()
      expectProblem(
        await club().admin.post("/groups", { name: group.name, parentId: root.id, coachIds: [] }),
        409,
        /^name: /u
      )
      expectProblem(await patch(`/groups/${(await createGroup()).id}`, { name: group.name }), 409, /^name: /u)
    })

    it("a rename carries the group's sessions: GET /session/{id} answers the new name", async () => {
      const name = unique("U12")
      const session = (await club().coach.post("/session/create", { name: "Tuesday", groupe: name })).body as {
        id: number
      }
      const other = (await club().coach.post("/session/create", { name: "Label", groupe: `${name}-x` })).body as {
        id: number
      }
      const group = await createGroup({ name })
      const renamed = `${name}-renamed`
      expectJson(await patch(`/groups/${group.id}`, { name: renamed }), 200, { ...group, name: renamed })
      expect(((await club().coach.get(`/session/${session.id}`)).body as { groupe: string }).groupe).toBe(renamed)
      expect(((await club().coach.get(`/session/${other.id}`)).body as { groupe: string }).groupe).toBe(`${name}-x`)
    })

    it("moves a group, never under itself (400) or a group below it (409 naming parentId); replaces coaches", async () => {
      const parent = await createGroup()
      const child = await createGroup({ parentId: parent.id })
      const elsewhere = await createGroup()
      expectProblem(await patch(`/groups/${parent.id}`, { parentId: parent.id }), 400, /^parentId: /u)
      expectProblem(await patch(`/groups/${parent.id}`, { parentId: child.id }), 409, /^parentId: /u)
      expectProblem(await patch(`/groups/${root.id}`, { parentId: child.id }), 409, /^parentId: /u)
      expectProblem(await patch(`/groups/${parent.id}`, { parentId: missingId }), 400, /^parentId: /u)
      expectJson(await patch(`/groups/${child.id}`, { parentId: elsewhere.id }), 200, {
        ...child,
        parentId: elsewhere.id
      })
      expectJson(await patch(`/groups/${child.id}`, { coachIds: [club().coachId] }), 200, {
        ...child,
        parentId: elsewhere.id,
        coachIds: [club().coachId]
      })
      expectProblem(await patch(`/groups/${child.id}`, { coachIds: [missingId] }), 400, /^coachIds: /u)
      expectProblem(await patch(`/groups/${missingId}`, { name: unique("x") }), 404)
    })

    it("deletes a group without subgroups or memberships; 409 while it has either (history is kept)", async () => {
      const parent = await createGroup()
      const child = await createGroup({ parentId: parent.id })
      expectProblem(await club().admin.delete(`/groups/${parent.id}`), 409, /subgroups/u)
      const athlete = await createAthlete(club())
      const started = await club().admin.post(`/groups/${child.id}/memberships`, {
        athleteId: athlete.id,
        from: "2027-01-01"
      })
      expectStatus(started, 201)
      const membership = started.body as MembershipDto
      expectStatus(await club().admin.post(`/memberships/${membership.id}/end`, { until: "2027-01-31" }), 200)
      expectProblem(await club().admin.delete(`/groups/${child.id}`), 409, /memberships/u)
      const empty = await createGroup({ parentId: parent.id })
      expectStatus(await club().admin.delete(`/groups/${empty.id}`), 204)
      expectProblem(await club().admin.get(`/groups/${empty.id}`), 404)
      expectProblem(await club().admin.delete(`/groups/${empty.id}`), 404)
    })
  })

  describe("memberships: dated, ended never rewritten", () => {
    it("the roster on a day before, within and after a membership; the ended one stays in the history", async () => {
      const group = await createGroup()
      const athlete = await createAthlete(club())
      const started = await club().admin.post(`/groups/${group.id}/memberships`, {
        athleteId: athlete.id,
        from: "2027-03-01"
      })
      expectStatus(started, 201)
      const membership = started.body as MembershipDto
      expect(membership).toEqual({
        id: membership.id,
        groupId: group.id,
        athleteId: athlete.id,
        from: "2027-03-01",
        until: null
      })
      expect(await members(group.id, "2027-02-28")).toEqual([])
      expect(await members(group.id, "2027-03-01")).toEqual([membership])
      expect(await members(group.id, "2099-12-31")).toEqual([membership])
      const ended = { ...membership, until: "2027-03-10" }
      expectJson(await club().admin.post(`/memberships/${membership.id}/end`, { until: "2027-03-10" }), 200, ended)
      expect(await members(group.id, "2027-03-10")).toEqual([ended])
      expect(await members(group.id, "2027-03-11")).toEqual([])
      expectProblem(
        await club().admin.post(`/memberships/${membership.id}/end`, { until: "2027-03-20" }),
        409,
        /^until: /u
      )
      // A return is a new membership; the first stays as it was.
      const back = await club().admin.post(`/groups/${group.id}/memberships`, {
        athleteId: athlete.id,
        from: "2027-04-01"
      })
      expectStatus(back, 201)
      const returned = back.body as MembershipDto
      expectJson(await club().athlete.get(`/groups/${group.id}/memberships`), 200, {
        items: [ended, returned],
        nextCursor: null
      })
      expectJson(await club().athlete.get(`/memberships?athleteId=${athlete.id}`), 200, {
        items: [ended, returned],
        nextCursor: null
      })
      const firstPage = (await club().admin.get(`/groups/${group.id}/memberships?limit=1`)).body as Page<
        MembershipDto
      >
      expect(firstPage.items).toEqual([ended])
      expectJson(
        await club().admin.get(`/groups/${group.id}/memberships?limit=1&cursor=${firstPage.nextCursor}`),
        200,
        { items: [returned], nextCursor: null }
      )
    })

    it("refuses a membership sharing a day with another of the athlete in the group (409 naming from)", async () => {
      const group = await createGroup()
      const athlete = await createAthlete(club())
      const first = (await club().admin.post(`/groups/${group.id}/memberships`, {
        athleteId: athlete.id,
        from: "2027-05-01"
      })).body as MembershipDto
      for (const from of ["2027-05-01", "2027-06-01", "2027-01-01"]) {
        expectProblem(
          await club().admin.post(`/groups/${group.id}/memberships`, { athleteId: athlete.id, from }),
          409,
          /^from: /u
        )
      }
      expectStatus(await club().admin.post(`/memberships/${first.id}/end`, { until: "2027-05-31" }), 200)
      expectProblem(
        await club().admin.post(`/groups/${group.id}/memberships`, { athleteId: athlete.id, from: "2027-05-31" }),
        409,
        /^from: /u
      )
      expectStatus(
        await club().admin.post(`/groups/${group.id}/memberships`, { athleteId: athlete.id, from: "2027-06-01" }),
        201
      )
      // Another group is another membership.
      expectStatus(
        await club().admin.post(`/groups/${(await createGroup()).id}/memberships`, {
          athleteId: athlete.id,
          from: "2027-05-01"
        }),
        201
      )
    })

    it("refuses an end before the start (400 naming until), unknown athlete (400), unknown group or membership (404)", async () => {
      const group = await createGroup()
      const athlete = await createAthlete(club())
      const membership = (await club().admin.post(`/groups/${group.id}/memberships`, {
        athleteId: athlete.id,
        from: "2027-05-01"
      })).body as MembershipDto
      expectProblem(
        await club().admin.post(`/memberships/${membership.id}/end`, { until: "2027-04-30" }),
        400,
        /^until: /u
      )
      expectProblem(
        await club().admin.post(`/groups/${group.id}/memberships`, { athleteId: missingId, from: "2027-05-01" }),
        400,
        /^athleteId: /u
      )
      expectProblem(
        await club().admin.post(`/groups/${missingId}/memberships`, { athleteId: athlete.id, from: "2027-05-01" }),
        404
      )
      expectProblem(await club().admin.post(`/memberships/${missingId}/end`, { until: "2027-05-01" }), 404)
      expectProblem(await club().admin.get(`/groups/${missingId}/members`), 404)
      expectProblem(await club().admin.get(`/groups/${missingId}/memberships`), 404)
      expectProblem(await club().admin.get(`/memberships?athleteId=${missingId}`), 404)
      expectProblem(await club().admin.get(`/groups/${group.id}/members?on=2027-02-30`), 400)
    })

    it("the roster without ?on is the club's today", async () => {
      const group = await createGroup()
      const athlete = await createAthlete(club())
      const membership = (await club().admin.post(`/groups/${group.id}/memberships`, {
        athleteId: athlete.id,
        from: "2000-01-01"
      })).body as MembershipDto
      expectJson(await club().admin.get(`/groups/${group.id}/members`), 200, { items: [membership], nextCursor: null })
    })
  })

  describe("who manages memberships: admins, and the coaches of the group or of a group above it", () => {
    it("a parent group's coach manages a subgroup's memberships; another coach gets 403", async () => {
      const coach = await createCoachMember(club(), { name: "Section coach" })
      const other = await createCoachMember(club(), { name: "Other section coach" })
      const section = await createGroup({ coachIds: [coach.id] })
      const team = await createGroup({ parentId: section.id })
      const athlete = await createAthlete(club())
      const body = { athleteId: athlete.id, from: "2027-09-01" }
      expectProblem(await callerFor(club(), other.id).post(`/groups/${team.id}/memberships`, body), 403)
      const started = await callerFor(club(), coach.id).post(`/groups/${team.id}/memberships`, body)
      expectStatus(started, 201)
      const membership = started.body as MembershipDto
      expectProblem(
        await callerFor(club(), other.id).post(`/memberships/${membership.id}/end`, { until: "2027-09-30" }),
        403
      )
      expect(await members(team.id, "2027-09-30")).toEqual([membership])
      expectJson(
        await callerFor(club(), coach.id).post(`/memberships/${membership.id}/end`, { until: "2027-09-30" }),
        200,
        { ...membership, until: "2027-09-30" }
      )
      // A coach of the subgroup alone does not reach the section above it.
      const teamCoach = await createCoachMember(club(), { name: "Team coach" })
      expectStatus(await patch(`/groups/${team.id}`, { coachIds: [teamCoach.id] }), 200)
      const later = { athleteId: athlete.id, from: "2027-10-01" }
      expectStatus(await callerFor(club(), teamCoach.id).post(`/groups/${team.id}/memberships`, later), 201)
      expectProblem(await callerFor(club(), teamCoach.id).post(`/groups/${section.id}/memberships`, later), 403)
      expectProblem(await club().athlete.post(`/groups/${team.id}/memberships`, later), 403)
    })

    it("only admins create, change and delete groups", async () => {
      const group = await createGroup()
      for (const role of ["COACH", "ATHLETE"] as const) {
        expectProblem(
          await club().as(role).post("/groups", { name: unique("g"), parentId: root.id, coachIds: [] }),
          403
        )
        expectProblem(await club().as(role).send("PATCH", `/groups/${group.id}`, { json: { name: "x" } }), 403)
        expectProblem(await club().as(role).delete(`/groups/${group.id}`), 403)
      }
    })
  })

  describe("GET /auth/me answers the caller's groups", () => {
    it("a coach: the groups it coaches; an athlete user: its athlete's groups today", async () => {
      const coached = await createGroup({ coachIds: [club().coachId] })
      const coachMe = (await club().coach.get("/auth/me")).body as { groups: ReadonlyArray<GroupDto> }
      expect(coachMe.groups).toContainEqual(coached)
      const team = await createGroup()
      const past = await createGroup()
      expectStatus(
        await club().admin.post(`/groups/${team.id}/memberships`, { athleteId: club().athleteId, from: "2000-01-01" }),
        201
      )
      const ended = (await club().admin.post(`/groups/${past.id}/memberships`, {
        athleteId: club().athleteId,
        from: "2000-01-01"
      })).body as MembershipDto
      expectStatus(await club().admin.post(`/memberships/${ended.id}/end`, { until: "2000-12-31" }), 200)
      const athleteMe = (await club().athlete.get("/auth/me")).body as { groups: ReadonlyArray<GroupDto> }
      expect(athleteMe.groups).toContainEqual(team)
      expect(athleteMe.groups).not.toContainEqual(past)
      expect(((await club().admin.get("/auth/me")).body as { groups: unknown }).groups).toEqual([])
    })
  })
}
