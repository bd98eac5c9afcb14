import { type Operation, rolesAllowed } from "@club/core"
import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase, type Role, unique } from "./support/club.ts"
import { expectJson, expectNotRefused, expectProblem, expectUnauthenticated } from "./support/expectations.ts"
import { createAthlete, createSession } from "./support/fixtures.ts"

const missingId = 987_654_321

/** Records the matrix's requests name; created once per server. */
interface Fixtures {
  readonly sessionId: number
  /** An athlete record no user is linked to: for the ATHLETE caller, someone else's record. */
  readonly otherAthleteId: number
}

interface Endpoint {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  /** As the OpenAPI document writes it. */
  readonly path: string
  readonly operation: Operation
  /** A well-formed request, so that only the caller decides between refusal and anything else. */
  readonly request: (club: Club, fixtures: Fixtures) => { readonly path: string; readonly json?: unknown }
}

const endpoint = (
  method: Endpoint["method"],
  path: string,
  operation: Operation,
  request: Endpoint["request"] = () => ({ path })
): Endpoint => ({ method, path, operation, request })

const coachEndpoints = (prefix: "" | "/coaches"): Array<Endpoint> => [
  endpoint(
    "POST",
    `${prefix}/create`,
    "coach.create",
    () => ({ path: `${prefix}/create`, json: { name: "Matrix coach" } })
  ),
  endpoint("GET", `${prefix}/all`, "coach.read"),
  endpoint("GET", `${prefix}/{id}`, "coach.read", (club) => ({ path: `${prefix}/${club.coachId}` })),
  endpoint(
    "PUT",
    `${prefix}/update/{id}`,
    "coach.update",
    () => ({ path: `${prefix}/update/${missingId}`, json: { name: "x" } })
  ),
  endpoint("DELETE", `${prefix}/delete/{id}`, "coach.delete", () => ({ path: `${prefix}/delete/${missingId}` }))
]

/**
 * Every endpoint that needs a token, and the operation of core's role table it performs. The
 * expectations below are generated from `rolesAllowed`, so a rule and its test cannot drift apart;
 * the OpenAPI test at the end checks that this list misses no endpoint.
 */
const endpoints: ReadonlyArray<Endpoint> = [
  endpoint(
    "POST",
    "/activite/create",
    "activity.create",
    (_, f) => ({ path: "/activite/create", json: { name: "Matrix", sessionId: f.sessionId } })
  ),
  endpoint("DELETE", "/activite/delete/{id}", "activity.delete", () => ({ path: `/activite/delete/${missingId}` })),
  endpoint(
    "POST",
    "/activite/update/{id}",
    "activity.update",
    (_, f) => ({ path: `/activite/update/${missingId}`, json: { sessionId: f.sessionId } })
  ),
  endpoint("GET", "/activite/{id}", "activity.read", () => ({ path: `/activite/${missingId}` })),
  endpoint("GET", "/activite/all", "activity.read"),
  endpoint("GET", "/activite/theme/{theme}", "activity.read", () => ({ path: "/activite/theme/cardio" })),

  endpoint(
    "POST",
    "/athletes/create",
    "athlete.create",
    () => ({ path: "/athletes/create", json: { name: "Matrix athlete" } })
  ),
  endpoint("POST", "/athletes/all", "athlete.list"),
  endpoint("GET", "/athletes/{id}", "athlete.read", (club) => ({ path: `/athletes/${club.athleteId}` })),
  endpoint(
    "PUT",
    "/athletes/{id}",
    "athlete.update",
    (_, f) => ({ path: `/athletes/${f.otherAthleteId}`, json: { name: "Other" } })
  ),
  endpoint("DELETE", "/athletes/{id}", "athlete.delete", () => ({ path: `/athletes/${missingId}` })),

  endpoint(
    "GET",
    "/athletes/athlete/{id}/session",
    "schedule.read",
    (club) => ({ path: `/athletes/athlete/${club.athleteId}/session` })
  ),
  endpoint("GET", "/athletes/athletes/session", "schedule.read"),
  endpoint("GET", "/athletes/athletes/session/{id}/activities", "schedule.read", (_, f) => ({
    path: `/athletes/athletes/session/${f.sessionId}/activities`
  })),
  endpoint("GET", "/athletes/athletes/{id}/session/after/{date}", "schedule.read", (club) => ({
    path: `/athletes/athletes/${club.athleteId}/session/after/2026-01-01`
  })),
  endpoint("GET", "/athletes/athletes/{id}/session/between/{startDate}/{endDate}", "schedule.read", (club) => ({
    path: `/athletes/athletes/${club.athleteId}/session/between/2026-01-01/2026-12-31`
  })),

  endpoint(
    "POST",
    "/session/create",
    "session.create",
    () => ({ path: "/session/create", json: { name: "Matrix session" } })
  ),
  endpoint("GET", "/session/all", "session.read"),
  endpoint("GET", "/session/{id}", "session.read", (_, f) => ({ path: `/session/${f.sessionId}` })),
  endpoint("DELETE", "/session/delete/{id}", "session.delete", () => ({ path: `/session/delete/${missingId}` })),
  endpoint(
    "PUT",
    "/session/update/{id}",
    "session.update",
    () => ({ path: `/session/update/${missingId}`, json: { duree: 1 } })
  ),

  ...coachEndpoints(""),
  ...coachEndpoints("/coaches"),

  endpoint("POST", "/users/create", "user.create", () => ({
    path: "/users/create",
    json: { name: unique("matrix"), role: "ATHLETE", password: "matrix-password" }
  })),
  endpoint("GET", "/users/all", "user.list"),
  endpoint("GET", "/users/{id}", "user.read", (club) => ({ path: `/users/${club.user.ADMIN.id}` })),
  endpoint(
    "PUT",
    "/users/update/{id}",
    "user.update",
    () => ({ path: `/users/update/${missingId}`, json: { email: "x@club.test" } })
  ),
  endpoint("DELETE", "/users/delete/{id}", "user.delete", () => ({ path: `/users/delete/${missingId}` })),

  endpoint(
    "POST",
    "/admins/create",
    "admin.create",
    () => ({ path: "/admins/create", json: { name: "Matrix admin" } })
  ),
  endpoint("GET", "/admins/all", "admin.read"),
  endpoint("GET", "/admins/{id}", "admin.read", () => ({ path: `/admins/${missingId}` })),
  endpoint(
    "PUT",
    "/admins/update/{id}",
    "admin.update",
    () => ({ path: `/admins/update/${missingId}`, json: { name: "x" } })
  ),
  endpoint("DELETE", "/admins/delete/{id}", "admin.delete", () => ({ path: `/admins/delete/${missingId}` })),

  endpoint("GET", "/auth/me", "auth.me")
]

/** Served without a token (CONTRACT.md), besides login, the OpenAPI document and the docs page. */
const healthPaths = ["/health/live", "/health/ready"]

const callers = ["none", "ADMIN", "COACH", "ATHLETE"] as const

await onEveryDatabase("Roles", (club) => {
  let fixtures: Promise<Fixtures> | undefined
  const fixturesOf = () =>
    fixtures ??= (async () => ({
      sessionId: (await createSession(club(), { name: "Matrix fixture" })).id,
      otherAthleteId: (await createAthlete(club(), { name: "Someone else" })).id
    }))()

  const call = async (caller: Role | "none", target: Endpoint) => {
    const { json, path } = target.request(club(), await fixturesOf())
    return club().as(caller).send(target.method, path, json === undefined ? {} : { json })
  }

  describe("the role matrix: every endpoint × (no token, ADMIN, COACH, ATHLETE), from core's role table", () => {
    for (const target of endpoints) {
      const allowed = rolesAllowed(target.operation)
      describe(`${target.method} ${target.path} (${target.operation}: ${allowed.join(", ")})`, () => {
        for (const caller of callers) {
          if (caller === "none") {
            it("without a token: 401 problem+json with WWW-Authenticate: Bearer", async () => {
              expectUnauthenticated(await call(caller, target))
            })
          } else if (allowed.includes(caller)) {
            it(`${caller}: allowed (neither 401 nor 403)`, async () => {
              expectNotRefused(await call(caller, target))
            })
          } else {
            it(`${caller}: 403 problem+json`, async () => {
              expectProblem(await call(caller, target), 403)
            })
          }
        }
      })
    }
  })

  describe("owner rules", () => {
    it("PUT /athletes/{id}: an athlete may update the athlete record linked to their user, and not another's (403)", async () => {
      const { otherAthleteId } = await fixturesOf()
      const other = (await club().admin.get(`/athletes/${otherAthleteId}`)).body
      expectJson(
        await club().athlete.put(`/athletes/${club().athleteId}`, {
          name: "Alex Athlete",
          categorie: "Senior",
          niveau: "A"
        }),
        200,
        {
          id: club().athleteId,
          name: "Alex Athlete",
          categorie: "Senior",
          niveau: "A",
          groupes: [],
          sessionIds: [],
          userId: null
        }
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

  describe("a caller whose role is not allowed is refused before the request is looked at", () => {
    const withInput = endpoints.filter((target) =>
      target.path.includes("{") || target.method === "POST" || target.method === "PUT"
    )
    for (const target of withInput) {
      const refusedRole = (["ATHLETE", "COACH", "ADMIN"] as const).find((role) =>
        !rolesAllowed(target.operation).includes(role)
      )
      if (refusedRole === undefined) continue
      it(`${target.method} ${target.path}: ${refusedRole} with a malformed id or body: 403 problem+json`, async () => {
        const path = target.path.replace(/\{[^}]+\}/gu, "-1")
        const malformed = target.method === "POST" || target.method === "PUT" ? { body: "{\"name\":" } : {}
        const reply = await club().as(refusedRole).send(target.method, path, malformed)
        expectProblem(reply, 403)
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
        ...endpoints.map((target) => `${target.method} ${target.path}`),
        "POST /auth/login",
        ...healthPaths.map((path) => `GET ${path}`)
      ]
      expect(listed.sort()).toEqual(expected.sort())
    })

    it("GET /docs answers 200 text/html", async () => {
      const reply = await club().anonymous.get("/docs")
      expect(reply.status).toBe(200)
      expect(reply.contentType).toBe("text/html")
      expect(reply.text).toMatch(/<html/iu)
    })

    it("POST /auth/login and the health probes need no token", async () => {
      for (const path of healthPaths) expect((await club().anonymous.get(path)).status).toBe(200)
      expect((await club().anonymous.post("/auth/login", { name: "coach", password: "coach-password-0" })).status).toBe(
        200
      )
    })
  })
})
