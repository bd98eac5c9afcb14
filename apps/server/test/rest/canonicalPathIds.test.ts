import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase, type Role } from "./support/club.ts"
import { expectEmpty, expectJson, expectProblem, expectStatus, expectText } from "@club/test-support/expectations"
import type { Reply } from "./support/http.ts"
import { createActivity, createAthlete, createCoach, createSession } from "@club/test-support/rest"

/**
 * An id in a path is only ever written in canonical decimal (`^[1-9][0-9]*$`, within the safe
 * integer range). Any other spelling of the same number (`07`, `+7`, `7e0`, `7;x`, ` 7`, `0x7`,
 * `7.0`) is the endpoint's bad-input answer naming `id`, never a read or a write of record 7.
 */
const spellings = (id: number): ReadonlyArray<readonly [string, string]> => [
  ["a leading zero", `0${id}`],
  ["a plus sign", `+${id}`],
  ["an exponent", `${id}e0`],
  ["a parameter after a semicolon", `${id};x`],
  ["a leading space", `%20${id}`],
  ["hexadecimal", `0x${id.toString(16)}`],
  ["a fraction of zero", `${id}.0`]
]

type Shape = "400 problem" | "activity 500 text" | "athlete update 204"

const expectRefused = (reply: Reply, shape: Shape) => {
  switch (shape) {
    case "400 problem":
      expectProblem(reply, 400, { detail: /^id: /u })
      expect((reply.body as { errors?: Array<{ field: string }> }).errors?.map((error) => error.field)).toEqual(["id"])
      return
    case "activity 500 text":
      return expectText(reply, 500, /^Error: id: /u)
    case "athlete update 204":
      return expectEmpty(reply, 204)
  }
}

interface Records {
  readonly sessionId: number
  readonly activityId: number
  readonly athleteId: number
  readonly coachId: number
}

interface Target {
  readonly method: "GET" | "PUT" | "POST" | "DELETE"
  readonly route: string
  readonly caller: Role
  readonly shape: Shape
  readonly path: (records: Records, id: string) => string
  readonly body?: (records: Records) => Record<string, unknown>
  /** The canonical request's status. */
  readonly canonical: number
  /**
   * The router reads a path only up to a `;`: where the id is not the last segment, what is left
   * of `/athletes/athlete/7;x/session` is no route at all, answered 404 as an unknown path
   * (docs/RELIABILITY.md, "Open points").
   */
  readonly semicolonLeavesNoRoute?: true
}

const targets: ReadonlyArray<Target> = [
  {
    method: "GET",
    route: "/session/{id}",
    caller: "COACH",
    shape: "400 problem",
    path: (_, id) => `/session/${id}`,
    canonical: 200
  },
  {
    method: "GET",
    route: "/athletes/{id}",
    caller: "ADMIN",
    shape: "400 problem",
    path: (_, id) => `/athletes/${id}`,
    canonical: 200
  },
  {
    method: "GET",
    route: "/coaches/{id}",
    caller: "ADMIN",
    shape: "400 problem",
    path: (_, id) => `/coaches/${id}`,
    canonical: 200
  },
  {
    method: "GET",
    route: "/{id} (coach)",
    caller: "COACH",
    shape: "400 problem",
    path: (_, id) => `/${id}`,
    canonical: 200
  },
  {
    method: "GET",
    route: "/activite/{id}",
    caller: "COACH",
    shape: "400 problem",
    path: (_, id) => `/activite/${id}`,
    canonical: 200
  },
  {
    method: "GET",
    route: "/athletes/athlete/{id}/session",
    caller: "ATHLETE",
    shape: "400 problem",
    path: (_, id) => `/athletes/athlete/${id}/session`,
    canonical: 200,
    semicolonLeavesNoRoute: true
  },
  {
    method: "PUT",
    route: "/session/update/{id}",
    caller: "COACH",
    shape: "400 problem",
    path: (_, id) => `/session/update/${id}`,
    body: () => ({ duree: 999 }),
    canonical: 204
  },
  {
    method: "PUT",
    route: "/athletes/{id}",
    caller: "ADMIN",
    shape: "athlete update 204",
    path: (_, id) => `/athletes/${id}`,
    body: () => ({ name: "Renamed through a spelling", categorie: "c", niveau: "n" }),
    canonical: 200
  },
  {
    method: "POST",
    route: "/activite/update/{id}",
    caller: "COACH",
    shape: "activity 500 text",
    path: (_, id) => `/activite/update/${id}`,
    body: (records) => ({ name: "Renamed through a spelling", sessionId: records.sessionId }),
    canonical: 200
  },
  {
    method: "DELETE",
    route: "/activite/delete/{id}",
    caller: "COACH",
    shape: "activity 500 text",
    path: (_, id) => `/activite/delete/${id}`,
    canonical: 200
  },
  {
    method: "DELETE",
    route: "/session/delete/{id}",
    caller: "COACH",
    shape: "400 problem",
    path: (_, id) => `/session/delete/${id}`,
    canonical: 200
  }
]

/** The id each target's path names. */
const idOf = (target: Target, records: Records) =>
  target.route.startsWith("/session") ?
    records.sessionId
    : target.route.startsWith("/activite") ?
    records.activityId
    : target.route.includes("coach") ?
    records.coachId
    : records.athleteId

/** What the requests could have changed: they must leave it as it was. */
const snapshot = async (club: Club) => {
  const [sessions, activities, athletes, coaches] = await Promise.all([
    club.coach.get("/session/all"),
    club.coach.get("/activite/all"),
    club.admin.post("/athletes/all"),
    club.admin.get("/all")
  ])
  return [sessions.body, activities.body, athletes.body, coaches.body]
}

await onEveryDatabase("Ids in paths are canonical decimal", (club) => {
  let records: Records | undefined
  const recordsOf = async () => {
    if (records === undefined) {
      // Ids past 9, so that their hexadecimal spelling differs from the decimal one.
      for (let n = 0; n < 10; n++) await createAthlete(club(), { name: `Filler ${n}` })
      const athlete = await createAthlete(club(), { name: "Spelled" })
      const coach = await createCoach(club(), { name: "Spelled" })
      for (let n = 0; n < 10; n++) await createSession(club(), { name: `Filler ${n}` })
      const session = await createSession(club(), { name: "Spelled", duree: 5, athleteIds: [athlete.id] })
      for (let n = 0; n < 10; n++) await createActivity(club(), session.id, { name: `Filler ${n}` })
      const activityId = await createActivity(club(), session.id, { name: "Spelled" })
      records = { sessionId: session.id, activityId, athleteId: athlete.id, coachId: coach.id }
    }
    return records
  }

  for (const target of targets) {
    describe(`${target.method} ${target.route} → ${target.shape}`, () => {
      it("refuses every other spelling of an existing id, changing nothing", async () => {
        const r = await recordsOf()
        const before = await snapshot(club())
        const accepted: Array<string> = []
        for (const [title, spelling] of spellings(idOf(target, r))) {
          const path = target.path(r, spelling)
          const reply = await club().as(target.caller).send(
            target.method,
            path,
            target.body === undefined ? {} : { json: target.body(r) }
          )
          try {
            if (target.semicolonLeavesNoRoute && spelling.includes(";")) expectStatus(reply, 404)
            else expectRefused(reply, target.shape)
          } catch {
            accepted.push(`${title} (${path}): ${reply.status} ${reply.text.slice(0, 100)}`)
          }
        }
        expect(accepted).toEqual([])
        expect(await snapshot(club())).toEqual(before)
      })
    })
  }

  it("answers the canonical id as before", async () => {
    // Deletes last: the other targets read and update the records they remove.
    const ordered = [...targets.filter((t) => t.method !== "DELETE"), ...targets.filter((t) => t.method === "DELETE")]
    const r = await recordsOf()
    for (const target of ordered) {
      const path = target.path(r, String(idOf(target, r)))
      const reply = await club().as(target.caller).send(
        target.method,
        path,
        target.body === undefined ? {} : { json: target.body(r) }
      )
      expectStatus(reply, target.canonical)
    }
    expectText(await club().coach.get(`/session/${r.sessionId}`), 404, `Session not found with id ${r.sessionId}`)
  })

  it("still reads the largest safe id as a (missing) record, and refuses the next one", async () => {
    expectText(await club().coach.get("/session/9007199254740991"), 404, "Session not found with id 9007199254740991")
    expectProblem(await club().coach.get("/session/9007199254740992"), 400, { detail: /^id: /u })
    const session = await createSession(club(), { name: "Plain" })
    expectJson(await club().coach.get(`/session/${session.id}`), 200, session)
  })

  it("the OpenAPI document describes every id path parameter as an integer from 1 to 9007199254740991", async () => {
    const document = (await club().anonymous.get("/openapi.json")).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }> }>>
    }
    let count = 0
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== "path" || parameter.name !== "id") continue
          count++
          expect(parameter.schema, `${method} ${path}`).toEqual({
            type: "integer",
            minimum: 1,
            maximum: 9_007_199_254_740_991
          })
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(25)
  })
})
