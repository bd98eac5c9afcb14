import { ClubApi, RequiredOperation } from "@club/contract/rest"
import { type Operation, rolesAllowed } from "@club/core"
import { Context } from "effect"
import { describe, expect, it } from "vitest"
import { onEveryDatabase, type Role } from "./support/club.ts"
import { expectJson, expectNotRefused, expectProblem, expectUnauthenticated } from "@club/test-support/expectations"
import { createAthlete } from "./support/fixtures.ts"

const missingId = 987_654_321

/** Records the owner rules name; created once per server. */
interface Fixtures {
  /** An athlete record no user is linked to: for the ATHLETE caller, someone else's record. */
  readonly otherAthleteId: number
}

interface Endpoint {
  readonly method: string
  /** As the OpenAPI document writes it. */
  readonly path: string
  readonly operation: Operation
  /** A request the endpoint routes: only the caller decides between refusal and anything else. */
  readonly request: () => { readonly path: string; readonly json?: unknown }
}

/** A value for each path parameter: ids that name no record, dates, a theme. */
const pathValues: Readonly<Record<string, string>> = {
  id: String(missingId),
  date: "2026-01-01",
  startDate: "2026-01-01",
  endDate: "2026-12-31",
  theme: "cardio"
}

/**
 * Every endpoint of the contract that performs an operation of core's role table, read from the
 * contract's `RequiredOperation` annotations. The expectations below are generated from
 * `rolesAllowed`, so a rule and its test cannot drift apart, and a new endpoint is in the matrix
 * without a line here; the OpenAPI test at the end checks that every endpoint the server documents
 * but login and the health probes is among them, so an endpoint that lost its annotation (and with
 * it the role gate) fails it. An allowed caller's request may well be refused as bad input or
 * answer not found: all the matrix asks is that the refusal is not 401 or 403.
 */
const endpoints: ReadonlyArray<Endpoint> = Object.values(ClubApi.groups).flatMap((group) =>
  Object.values(group.endpoints).flatMap((target): Array<Endpoint> => {
    const operation = Context.get(target.annotations, RequiredOperation)
    if (operation === undefined) return []
    const path = target.path.replace(/:(\w+)/gu, (_: string, name: string) => pathValues[name]!)
    const json = target.method === "POST" || target.method === "PUT" ? {} : undefined
    return [{
      method: target.method,
      path: target.path.replace(/:(\w+)/gu, "{$1}"),
      operation,
      request: () => (json === undefined ? { path } : { path, json })
    }]
  })
)

/** Served without a token (CONTRACT.md), besides login, the OpenAPI document and the docs page. */
const healthPaths = ["/health/live", "/health/ready"]

const callers = ["none", "ADMIN", "COACH", "ATHLETE"] as const

await onEveryDatabase("Roles", (club) => {
  let fixtures: Promise<Fixtures> | undefined
  const fixturesOf = () =>
    fixtures ??= (async () => ({
      otherAthleteId: (await createAthlete(club(), { name: "Someone else" })).id
    }))()

  const call = async (caller: Role | "none", target: Endpoint) => {
    const { json, path } = target.request()
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
