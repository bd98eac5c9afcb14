import { describe, expect, it } from "vitest"
import { expectJson, expectNotRefused, expectProblem, expectUnauthenticated } from "../../expectations.ts"
import { type Caller, type Club, coachMember, type Role } from "../Club.ts"
import {
  athleteDto,
  callerFor,
  createAthlete,
  createCoachMember,
  createGroup,
  createUser,
  linkGuardian,
  missingId,
  tokenOf
} from "../records.ts"

/**
 * An endpoint of the contract that performs an operation of core's role table, as each harness
 * reads it from the contract and the table: the suite knows neither, so a rule and its test cannot
 * drift apart, and a new endpoint is in the matrix without a line here.
 */
export interface GuardedEndpoint {
  readonly method: string
  /** As the OpenAPI document writes it: `/session/{id}`. */
  readonly path: string
  /** The operation of the role table the endpoint performs. */
  readonly operation: string
  /** The roles the table allows. */
  readonly allowed: ReadonlyArray<Role>
  /** Whose record lets a caller the roles alone refuse in: the athlete record linked to its user, or its user. */
  readonly owner: "athlete" | "user" | undefined
  /** Whose coach a COACH must be to act (the table's `coachOwns`): the session's, the series', the occurrence's. */
  readonly coachOwns?: "sessionCoach" | "seriesCoach" | "occurrenceCoach" | "groupCoach" | undefined
  /** Whether the guardians of the path's athlete may call it too (the table's `guardian`, issue 41). */
  readonly guardian?: boolean
}

/**
 * A body each owned write decodes, so that the request reaches the use-case's ownership check: a
 * new owned endpoint fails the matrix until it has one here.
 */
const ownedBodies: Readonly<Record<string, (fixture: OwnedFixture) => unknown>> = {
  "POST /planning/sessions": (f) => ({ name: "Owned", coachId: f.coachId, creneau: f.freeTime, duree: 30 }),
  "POST /planning/series": (f) => ({
    name: "Owned",
    coachId: f.coachId,
    start: f.freeTime,
    duree: 30,
    rrule: "FREQ=DAILY;COUNT=1"
  }),
  "PATCH /planning/sessions/{id}": () => ({ name: "Changed" }),
  "PATCH /planning/series/{id}": () => ({ name: "Changed" }),
  "PATCH /planning/series/{id}/occurrences/{sessionId}": () => ({ name: "Changed" }),
  "DELETE /planning/series/{id}": () => undefined,
  "DELETE /planning/series/{id}/occurrences/{sessionId}": () => undefined,
  "PUT /attendance/sessions/{id}/settings": () => ({ capacity: 5 }),
  "PUT /attendance/sessions/{id}/presence": (f) => ({ marks: [{ athleteId: f.athleteId, status: "present" }] }),
  "PUT /attendance/athletes/{id}/replies/{sessionId}": () => ({ answer: "yes" }),
  "POST /groups/{id}/memberships": (f) => ({ athleteId: f.athleteId, from: "2027-06-01" }),
  "POST /memberships/{id}/end": () => ({ until: "2027-01-31" }),
  "GET /people/athletes/{id}/export": () => undefined
}

/** A series of the club's coach (its first occurrence a session of that coach), and a time the coach is free. */
interface OwnedFixture {
  readonly coachId: number
  readonly athleteId: number
  readonly seriesId: number
  readonly sessionId: number
  readonly freeTime: string
}

/**
 * A group the club's coach coaches (under the club's root), and an open membership in it of an
 * athlete from 2027-01-01: what a `groupCoach` endpoint acts on.
 */
interface GroupFixture {
  readonly groupId: number
  readonly membershipId: number
}

/** The path with the fixture's records: `{id}` is the series, the athlete or the session the path names. */
const ownedPath = (endpoint: GuardedEndpoint, f: OwnedFixture) =>
  endpoint.path.replace(/\{(\w+)\}/gu, (_, name: string) =>
    String(
      name === "sessionId"
        ? f.sessionId
        : endpoint.path.startsWith("/planning/series")
        ? f.seriesId
        : endpoint.path.startsWith("/attendance/athletes") || endpoint.path.startsWith("/people/athletes")
        ? f.athleteId
        : f.sessionId
    ))

const roles: ReadonlyArray<Role> = ["ADMIN", "COACH", "ATHLETE"]

/** A value for each path parameter: ids that name no record, dates, a theme. */
const pathValues: Readonly<Record<string, string>> = {
  id: String(missingId),
  sessionId: String(missingId),
  athleteId: String(missingId),
  date: "2026-01-01",
  startDate: "2026-01-01",
  endDate: "2026-12-31",
  theme: "cardio"
}

const pathOf = (endpoint: GuardedEndpoint, id = pathValues["id"]!) =>
  endpoint.path.replace(/\{(\w+)\}/gu, (_, name: string) => name === "id" ? id : pathValues[name]!)

const carriesBody = (endpoint: GuardedEndpoint) => endpoint.method === "POST" || endpoint.method === "PUT"

/** Served without a token (CONTRACT.md), besides login, the OpenAPI document and the docs page. */
const healthPaths = ["/health/live", "/health/ready"]
/** The calendar feeds: public routes whose token in the path stands for its user (the feeds suite tests them). */
const feedPaths = [
  ...["athlete", "coach", "group"].map((kind) => `/planning/feeds/{token}/${kind}/{file}`),
  // A guardian's feed (issue 41) is the token's user's: no id in its path.
  "/planning/feeds/{token}/guardian.ics"
]

/** One-click unsubscribe (RFC 8058): a public route whose signed token stands for a user and a kind (the notices suite tests it). */
const unsubscribePaths = ["GET /notices/unsubscribe", "POST /notices/unsubscribe"]

/**
 * The role rules, on any harness, for the `endpoints` the contract guards: every role the table does
 * not allow gets 403 problem+json whatever it sends (the request is not even decoded), every role it
 * allows gets past the gate, a request without a valid token gets 401 with the Bearer challenge, and
 * the owner rules let a caller at its own record. An allowed caller's request may well be refused as
 * bad input or answer not found: all the matrix asks is that the refusal is not 401 or 403.
 */
export const roleRules = (club: () => Club, endpoints: ReadonlyArray<GuardedEndpoint>) => {
  /** A request the endpoint routes: only the caller decides between refusal and anything else. */
  const call = (caller: Role | "none", endpoint: GuardedEndpoint, id?: string) =>
    club().as(caller).send(endpoint.method, pathOf(endpoint, id), carriesBody(endpoint) ? { json: {} } : {})

  describe("the role matrix: every endpoint × (no token, ADMIN, COACH, ATHLETE), from core's role table", () => {
    for (const endpoint of endpoints) {
      describe(`${endpoint.method} ${endpoint.path} (${endpoint.operation}: ${endpoint.allowed.join(", ")})`, () => {
        it("without a token: 401 problem+json with WWW-Authenticate: Bearer", async () => {
          expectUnauthenticated(await call("none", endpoint), /^Bearer$/u)
        })

        it("with a token the server never issued: 401, the invalid_token challenge", async () => {
          const reply = await club().withToken("not-a-token").send(endpoint.method, pathOf(endpoint))
          expectUnauthenticated(reply, /^Bearer error="invalid_token"$/u)
        })

        for (const role of roles) {
          if (endpoint.allowed.includes(role)) {
            it(`${role}: allowed (neither 401 nor 403)`, async () => {
              expectNotRefused(await call(role, endpoint))
            })
          } else {
            it(`${role}: 403 problem+json`, async () => {
              expectProblem(await call(role, endpoint), 403, `Your role may not ${endpoint.operation}`)
            })
          }
        }
      })
    }
  })

  describe("owner rules", () => {
    for (const endpoint of endpoints.filter((candidate) => candidate.owner !== undefined)) {
      const owners = roles.filter((role) =>
        !endpoint.allowed.includes(role) && (endpoint.owner === "user" || role === "ATHLETE")
      )
      for (const role of owners) {
        it(`${endpoint.method} ${endpoint.path}: ${role}, on its own record, is not refused`, async () => {
          const id = endpoint.owner === "user" ? club().user[role].id : club().athleteId
          expectNotRefused(await call(role, endpoint, String(id)))
        })
      }
    }

    it("PUT /athletes/{id}: an athlete may update the athlete record linked to their user, and not another's (403)", async () => {
      const otherAthleteId = (await createAthlete(club(), { name: "Someone else" })).id
      const other = (await club().admin.get(`/athletes/${otherAthleteId}`)).body
      expectJson(
        await club().athlete.put(`/athletes/${club().athleteId}`, {
          name: "Alex Athlete",
          categorie: "Senior",
          niveau: "A"
        }),
        200,
        athleteDto(club().athleteId, "Alex Athlete", "Senior", "A")
      )
      expectProblem(await club().athlete.put(`/athletes/${otherAthleteId}`, { name: "Hijacked" }), 403)
      expectJson(await club().admin.get(`/athletes/${otherAthleteId}`), 200, other)
    })

    it("PUT /athletes/{id}: the owner sending a malformed body gets the seed's empty 204, not a refusal", async () => {
      const reply = await club().athlete.put(`/athletes/${club().athleteId}`, undefined, { body: "{\"name\":" })
      expect(reply.status).toBe(204)
      expect(reply.text).toBe("")
    })

    it("PUT /athletes/{id}: a coach may not update the athlete record of anyone (403)", async () => {
      expectProblem(await club().coach.put(`/athletes/${club().athleteId}`, { name: "By the coach" }), 403)
    })

    it("GET /users/{id}: a user may read their own user record, and not another's (403)", async () => {
      for (const role of ["COACH", "ATHLETE"] as const) {
        expectJson(await club().as(role).get(`/users/${club().user[role].id}`), 200, club().user[role])
        const other = role === "COACH" ? club().user.ATHLETE : club().user.COACH
        expectProblem(await club().as(role).get(`/users/${other.id}`), 403)
      }
    })
  })

  describe("coach ownership: a coach acts on the sessions and series it coaches, another coach gets 403", () => {
    let slot = 0
    /** Times of the club's coach that no other fixture books: an hour apart, from a week ahead. */
    const nextTime = () => {
      const start = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 7)
      return new Date(start + (slot++) * 3_600_000).toISOString().slice(0, 19)
    }
    const fixture = async (): Promise<OwnedFixture> => {
      const series = await club().coach.post("/planning/series", {
        name: "Owned series",
        coachId: club().coachId,
        athleteIds: [club().athleteId],
        start: nextTime(),
        duree: 30,
        rrule: "FREQ=DAILY;COUNT=1"
      })
      expect(series.status, series.text).toBe(201)
      const body = series.body as { id: number; occurrences: ReadonlyArray<{ sessionId: number }> }
      return {
        coachId: club().coachId,
        athleteId: club().athleteId,
        seriesId: body.id,
        sessionId: body.occurrences[0]!.sessionId,
        freeTime: nextTime()
      }
    }
    let other: Caller | undefined
    /** A second coach, with its own user. */
    const otherCoach = async () => {
      if (other !== undefined) return other
      const coach = (await club().admin.post("/coaches/create", { name: "Other coach" })).body as { id: number }
      const user = await createUser(club(), { role: "COACH", coachId: coach.id })
      other = club().withToken(await tokenOf(club(), user.name, user.password))
      return other
    }

    let groups = 0
    const groupFixture = async (): Promise<GroupFixture> => {
      const listed = (await club().admin.get("/groups?limit=500")).body as {
        items: ReadonlyArray<{ id: number; parentId: number | null }>
      }
      const root = listed.items.find((group) => group.parentId === null) ??
        (await club().admin.post("/groups", { name: "Role matrix club", parentId: null, coachIds: [] })).body as {
          id: number
        }
      const group = await club().admin.post("/groups", {
        name: `Role matrix group ${Date.now()}-${groups++}`,
        parentId: root.id,
        coachIds: [club().coachId]
      })
      expect(group.status, group.text).toBe(201)
      const groupId = (group.body as { id: number }).id
      const membership = await club().admin.post(`/groups/${groupId}/memberships`, {
        athleteId: club().athleteId,
        from: "2027-01-01"
      })
      expect(membership.status, membership.text).toBe(201)
      return { groupId, membershipId: (membership.body as { id: number }).id }
    }

    for (const endpoint of endpoints.filter((candidate) => candidate.coachOwns === "groupCoach")) {
      const key = `${endpoint.method} ${endpoint.path}`
      it(`${key} (groupCoach): a coach of another group gets 403 and nothing changes; the group's coach is not refused`, async () => {
        const body = ownedBodies[key]
        expect(body, `an owned body for ${key} in roles.ts`).toBeDefined()
        const g = await groupFixture()
        const path = endpoint.path.replace(
          "{id}",
          String(endpoint.path.startsWith("/groups") ? g.groupId : g.membershipId)
        )
        const options = { json: body!({ coachId: club().coachId, athleteId: club().athleteId } as OwnedFixture) }
        const state = async () => (await club().admin.get(`/groups/${g.groupId}/memberships`)).body
        const before = await state()
        expectProblem(await (await otherCoach()).send(endpoint.method, path, options), 403)
        expect(await state()).toEqual(before)
        expectNotRefused(await club().coach.send(endpoint.method, path, options))
      })
    }

    for (
      const endpoint of endpoints.filter((candidate) =>
        candidate.coachOwns !== undefined && candidate.coachOwns !== "groupCoach"
      )
    ) {
      const key = `${endpoint.method} ${endpoint.path}`
      it(`${key} (${endpoint.coachOwns}): another coach gets 403 and nothing changes; the owning coach is not refused`, async () => {
        const body = ownedBodies[key]
        expect(body, `an owned body for ${key} in roles.ts`).toBeDefined()
        const f = await fixture()
        const path = ownedPath(endpoint, f)
        const json = body!(f)
        const options = json === undefined ? {} : { json }
        const state = async () =>
          Promise.all(
            [
              `/planning/series/${f.seriesId}`,
              `/attendance/sessions/${f.sessionId}/replies`,
              `/planning/sessions?from=${f.freeTime}`
            ].map(
              async (read) => {
                // Reading a series extends it to the horizon, which moves with the clock.
                const { expandedUntil: _moving, ...rest } = (await club().admin.get(read)).body as Record<
                  string,
                  unknown
                >
                return rest
              }
            )
          )
        const before = await state()
        expectProblem(await (await otherCoach()).send(endpoint.method, path, options), 403)
        expect(await state()).toEqual(before)
        expectNotRefused(await club().coach.send(endpoint.method, path, options))
      })
    }
  })

  describe("group scope and guardians (issue 41): the coach of a group above acts on its sessions, a guardian replies for its athlete", () => {
    let slot = 0
    /** Times of the club's coach that no other fixture books: an hour apart, from five weeks ahead. */
    const nextTime = () => {
      const start = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 35)
      return new Date(start + (slot++) * 3_600_000).toISOString().slice(0, 19)
    }
    /**
     * A series of the club's coach whose `groupe` is a team under a section coached by another coach
     * (the section's coach is not the series' coach): what the group scope is about.
     */
    const groupFixture = async () => {
      const sectionCoach = await createCoachMember(club(), { name: "Section coach" })
      const section = await createGroup(club(), { coachIds: [sectionCoach.id] })
      const team = await createGroup(club(), { parentId: section.id })
      const series = await club().coach.post("/planning/series", {
        name: "Team series",
        groupe: team.name,
        coachId: club().coachId,
        athleteIds: [club().athleteId],
        start: nextTime(),
        duree: 30,
        rrule: "FREQ=DAILY;COUNT=1"
      })
      expect(series.status, series.text).toBe(201)
      const body = series.body as { id: number; occurrences: ReadonlyArray<{ sessionId: number }> }
      const fixture: OwnedFixture = {
        coachId: club().coachId,
        athleteId: club().athleteId,
        seriesId: body.id,
        sessionId: body.occurrences[0]!.sessionId,
        freeTime: nextTime()
      }
      return { fixture, sectionCoach: callerFor(club(), sectionCoach.id) }
    }

    // A create is for the coach it names (docs/membership.md): the group scope is about records that exist.
    for (
      const endpoint of endpoints.filter((candidate) =>
        candidate.coachOwns !== undefined && candidate.coachOwns !== "groupCoach" &&
        !candidate.operation.endsWith(".create")
      )
    ) {
      const key = `${endpoint.method} ${endpoint.path}`
      it(`${key} (${endpoint.coachOwns}): the coach of a group above the record's group is not refused`, async () => {
        const body = ownedBodies[key]
        expect(body, `an owned body for ${key} in roles.ts`).toBeDefined()
        const { fixture, sectionCoach } = await groupFixture()
        const json = body!(fixture)
        expectNotRefused(
          await sectionCoach.send(endpoint.method, ownedPath(endpoint, fixture), json === undefined ? {} : { json })
        )
      })
    }

    for (const endpoint of endpoints.filter((candidate) => candidate.guardian === true)) {
      const key = `${endpoint.method} ${endpoint.path}`
      it(`${key} (guardian): a guardian of the path's athlete is not refused, whatever its role; unlinked, 403 and nothing changes`, async () => {
        const body = ownedBodies[key]
        expect(body, `an owned body for ${key} in roles.ts`).toBeDefined()
        const { fixture } = await groupFixture()
        // An ATHLETE user without an athlete record of its own: the link alone lets it in.
        const parent = await createUser(club(), { role: "ATHLETE" })
        const deleted = await club().admin.delete(`/athletes/${parent.athleteId}`)
        expect(deleted.status, deleted.text).toBe(204)
        const guardian = club().withToken(await tokenOf(club(), parent.name, parent.password))
        const path = ownedPath(endpoint, fixture)
        const json = body!(fixture)
        const options = json === undefined ? {} : { json }
        const state = async () => (await club().admin.get(`/attendance/sessions/${fixture.sessionId}/replies`)).body
        const before = await state()
        expectProblem(await guardian.send(endpoint.method, path, options), 403)
        expect(await state()).toEqual(before)
        await linkGuardian(club(), parent.id, fixture.athleteId)
        expectNotRefused(await guardian.send(endpoint.method, path, options))
        const unlinked = await club().admin.delete(`/guardians/${parent.id}/athletes/${fixture.athleteId}`)
        expect(unlinked.status, unlinked.text).toBe(204)
        const after = await state()
        expectProblem(await guardian.send(endpoint.method, path, options), 403)
        expect(await state()).toEqual(after)
      })
    }
  })

  describe("a caller whose role is not allowed is refused before the request is looked at", () => {
    for (const endpoint of endpoints.filter((target) => target.path.includes("{") || carriesBody(target))) {
      const refusedRole = (["ATHLETE", "COACH", "ADMIN"] as const).find((role) => !endpoint.allowed.includes(role))
      if (refusedRole === undefined) continue
      it(`${endpoint.method} ${endpoint.path}: ${refusedRole} with a malformed id or body: 403 problem+json`, async () => {
        const path = endpoint.path.replace(/\{[^}]+\}/gu, "-1")
        const malformed = carriesBody(endpoint) ? { body: "{\"name\":" } : {}
        expectProblem(await club().as(refusedRole).send(endpoint.method, path, malformed), 403)
      })
    }
  })

  describe("documents served without a token", () => {
    it("GET /openapi.json answers 200, OpenAPI 3.1, listing every endpoint path", async () => {
      const reply = await club().anonymous.get("/openapi.json")
      expect(reply.status).toBe(200)
      expect(reply.contentType).toBe("application/json")
      const document = reply.body as { openapi: string; paths: Record<string, Record<string, unknown>> }
      expect(document.openapi).toMatch(/^3\.1\.\d+$/u)
      const listed = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)
      )
      const expected = [
        ...endpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`),
        "POST /auth/login",
        ...healthPaths.map((path) => `GET ${path}`),
        ...feedPaths.map((path) => `GET ${path}`),
        ...unsubscribePaths
      ]
      expect(listed.sort()).toEqual(expected.sort())
    })

    it("GET /docs answers 200 text/html, the interactive reference of /openapi.json", async () => {
      const reply = await club().anonymous.get("/docs")
      expect(reply.status).toBe(200)
      expect(reply.contentType).toBe("text/html")
      expect(reply.text).toMatch(/<html/iu)
      expect(reply.text).toContain("/openapi.json")
    })

    it("POST /auth/login and the health probes need no token", async () => {
      for (const path of healthPaths) expect((await club().anonymous.get(path)).status).toBe(200)
      const login = await club().anonymous.post("/auth/login", {
        name: coachMember.name,
        password: coachMember.password
      })
      expect(login.status).toBe(200)
    })
  })
}
