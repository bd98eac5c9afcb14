import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase, type Role } from "./support/club.ts"
import { expectEmpty, expectProblem, expectText } from "@club/test-support/expectations"
import type { Reply } from "./support/http.ts"
import { createActivity, createAthlete, createCoach, createSession } from "./support/fixtures.ts"

/**
 * How an endpoint answers input it cannot decode (docs/DECISIONS.md): activity create, update and
 * delete with the seed's 500 `Error: <field>: ...`; the athlete update with its empty 204; session
 * create with a 400 plain text naming the field; everything else with a 400 problem+json whose
 * detail names the field.
 */
type Shape = "activity 500 text" | "athlete update 204" | "session create 400 text" | "400 problem"

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")
/** `field: message`, for the field or one of its items (`athleteIds.0: ...`). */
const naming = (field: string) => `${escape(field)}(\\.\\d+)?: `

const expectRefusedInput = (reply: Reply, shape: Shape, field: string) => {
  switch (shape) {
    case "activity 500 text":
      return expectText(reply, 500, new RegExp(`^Error: (.*; )?${naming(field)}`, "u"))
    case "athlete update 204":
      return expectEmpty(reply, 204)
    case "session create 400 text":
      return expectText(reply, 400, new RegExp(`^(.*; )?${naming(field)}`, "u"))
    case "400 problem": {
      expectProblem(reply, 400, { detail: new RegExp(`^(.*; )?${naming(field)}`, "u") })
      const errors = (reply.body as { errors?: Array<{ field: string }> }).errors
      expect(errors?.map((error) => error.field), "errors lists the field").toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^${escape(field)}(\\.\\d+)?$`, "u"))])
      )
      return
    }
  }
}

/** The records the requests below name; they must come out of the file unchanged. */
interface Existing {
  readonly sessionId: number
  readonly activityId: number
  readonly athleteId: number
  readonly coachId: number
  readonly userId: number
  readonly adminId: number
}

interface Case {
  readonly title: string
  /** The failing part: a body field, `body`, or a path parameter. */
  readonly field: string
  readonly path?: (existing: Existing) => string
  /** A raw body, sent as is. */
  readonly body?: string
  /** JSON fields laid over the target's valid body. */
  readonly json?: Record<string, unknown>
}

interface Target {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: (existing: Existing) => string
  readonly caller: Role | "none"
  readonly shape: Shape
  readonly cases: ReadonlyArray<Case>
  /** A valid body the cases start from, so that each case breaks exactly one thing. */
  readonly valid?: (existing: Existing) => Record<string, unknown>
}

const long = "x".repeat(201)
const tooMany = (item: unknown) => Array.from({ length: 10_001 }, () => item)
const beyondSafe = "9007199254740993"

const malformedBodies: ReadonlyArray<Case> = [
  { title: "malformed JSON", field: "body", body: "{\"name\": " },
  { title: "not JSON at all", field: "body", body: "name=Bob" },
  { title: "a JSON array instead of an object", field: "body", body: "[]" },
  { title: "an empty body", field: "body", body: "" }
]

/** A path id that is not a positive integer within JavaScript's safe range. */
const badIds = (path: (id: string) => string, field = "id"): Array<Case> =>
  ["0", "-1", "1.5", "abc", beyondSafe].map((id) => ({ title: `id ${id}`, field, path: () => path(id) }))

const coachTargets = (prefix: "" | "/coaches"): Array<Target> => [
  {
    method: "POST",
    path: () => `${prefix}/create`,
    caller: "ADMIN",
    shape: "400 problem",
    cases: [
      ...malformedBodies,
      { title: "name of the wrong type", field: "name", json: { name: 5 } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "a negative id", field: "id", json: { id: -1, name: "x" } },
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } },
      { title: "a non-integer id", field: "id", json: { id: 1.5, name: "x" } }
    ]
  },
  {
    method: "GET",
    path: () => `${prefix}/1`,
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `${prefix}/${id}`)
  },
  {
    method: "PUT",
    path: (e) => `${prefix}/update/${e.coachId}`,
    caller: "ADMIN",
    shape: "400 problem",
    cases: [
      ...badIds((id) => `${prefix}/update/${id}`).map((c) => ({ ...c, json: { name: "x" } })),
      ...malformedBodies,
      { title: "name of the wrong type", field: "name", json: { name: ["x"] } },
      { title: "name over 200 characters", field: "name", json: { name: long } }
    ]
  },
  {
    method: "DELETE",
    path: () => `${prefix}/delete/1`,
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `${prefix}/delete/${id}`)
  }
]

const targets: ReadonlyArray<Target> = [
  {
    method: "POST",
    path: () => "/activite/create",
    caller: "COACH",
    shape: "activity 500 text",
    valid: (e) => ({ name: "Bad", theme: "t", duree: 1, dataActivite: [], sessionId: e.sessionId }),
    cases: [
      ...malformedBodies,
      { title: "sessionId missing", field: "sessionId", json: { sessionId: undefined } },
      { title: "sessionId null", field: "sessionId", json: { sessionId: null } },
      { title: "sessionId a string", field: "sessionId", json: { sessionId: "1" } },
      { title: "sessionId not an integer", field: "sessionId", json: { sessionId: 1.5 } },
      { title: "sessionId negative", field: "sessionId", json: { sessionId: -3 } },
      { title: "sessionId beyond the safe range", field: "sessionId", body: `{"sessionId": ${beyondSafe}}` },
      { title: "name of the wrong type", field: "name", json: { name: 5 } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "theme over 200 characters", field: "theme", json: { theme: long } },
      { title: "theme with a NUL character", field: "theme", json: { theme: "a\u0000b" } },
      { title: "duree negative", field: "duree", json: { duree: -1 } },
      { title: "duree a string", field: "duree", json: { duree: "60" } },
      { title: "dataActivite not an array", field: "dataActivite", json: { dataActivite: "x" } },
      { title: "dataActivite with a non-string item", field: "dataActivite", json: { dataActivite: ["a", 2] } },
      { title: "dataActivite over 10,000 items", field: "dataActivite", json: { dataActivite: tooMany("a") } }
    ]
  },
  {
    method: "POST",
    path: (e) => `/activite/update/${e.activityId}`,
    caller: "COACH",
    shape: "activity 500 text",
    valid: (e) => ({ name: "Changed?", sessionId: e.sessionId }),
    cases: [
      ...badIds((id) => `/activite/update/${id}`),
      ...malformedBodies,
      { title: "sessionId missing", field: "sessionId", json: { sessionId: undefined } },
      { title: "sessionId negative", field: "sessionId", json: { sessionId: -1 } },
      { title: "name of the wrong type", field: "name", json: { name: false } },
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "duree not an integer", field: "duree", json: { duree: 1.5 } },
      { title: "dataActivite over 10,000 items", field: "dataActivite", json: { dataActivite: tooMany("a") } }
    ]
  },
  {
    method: "DELETE",
    path: () => "/activite/delete/1",
    caller: "COACH",
    shape: "activity 500 text",
    cases: badIds((id) => `/activite/delete/${id}`)
  },
  {
    method: "GET",
    path: () => "/activite/1",
    caller: "COACH",
    shape: "400 problem",
    cases: badIds((id) => `/activite/${id}`)
  },
  {
    method: "GET",
    path: () => "/activite/theme/cardio",
    caller: "ATHLETE",
    shape: "400 problem",
    cases: [{ title: "a theme with a NUL character", field: "theme", path: () => "/activite/theme/a%00b" }]
  },

  {
    method: "POST",
    path: () => "/athletes/create",
    caller: "ADMIN",
    shape: "400 problem",
    valid: () => ({ name: "Bad", categorie: "c", niveau: "n" }),
    cases: [
      ...malformedBodies,
      { title: "name of the wrong type", field: "name", json: { name: 5 } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "categorie of the wrong type", field: "categorie", json: { categorie: {} } },
      { title: "categorie with a NUL character", field: "categorie", json: { categorie: "a\u0000b" } },
      { title: "niveau over 200 characters", field: "niveau", json: { niveau: long } },
      { title: "groupes over 10,000 items", field: "groupes", json: { groupes: tooMany("g") } },
      { title: "sessionIds with a negative id", field: "sessionIds", json: { sessionIds: [-1] } },
      { title: "a negative id", field: "id", json: { id: -1 } },
      { title: "an id that is a string", field: "id", json: { id: "7" } }
    ]
  },
  {
    method: "GET",
    path: () => "/athletes/1",
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `/athletes/${id}`)
  },
  {
    method: "PUT",
    path: (e) => `/athletes/${e.athleteId}`,
    caller: "ADMIN",
    shape: "athlete update 204",
    valid: () => ({ name: "Changed?", categorie: "c", niveau: "n" }),
    cases: [
      ...badIds((id) => `/athletes/${id}`),
      ...malformedBodies,
      { title: "name of the wrong type", field: "name", json: { name: 5 } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "sessionIds not an array", field: "sessionIds", json: { sessionIds: 1 } },
      { title: "niveau with a NUL character", field: "niveau", json: { niveau: "a\u0000b" } },
      { title: "sessionIds with a non-integer", field: "sessionIds", json: { sessionIds: [1.5] } },
      { title: "sessionIds over 10,000 items", field: "sessionIds", json: { sessionIds: tooMany(1) } }
    ]
  },
  {
    method: "DELETE",
    path: () => "/athletes/1",
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `/athletes/${id}`)
  },

  {
    method: "GET",
    path: () => "/athletes/athlete/1/session",
    caller: "ATHLETE",
    shape: "400 problem",
    cases: badIds((id) => `/athletes/athlete/${id}/session`)
  },
  {
    method: "GET",
    path: () => "/athletes/athletes/session/1/activities",
    caller: "ATHLETE",
    shape: "400 problem",
    cases: badIds((id) => `/athletes/athletes/session/${id}/activities`)
  },
  {
    method: "GET",
    path: () => "/athletes/athletes/1/session/after/2026-01-01",
    caller: "ATHLETE",
    shape: "400 problem",
    cases: [
      ...badIds((id) => `/athletes/athletes/${id}/session/after/2026-01-01`),
      ...["2026-02-30", "2026-1-5", "20260105", "2026-01-05T00:00:00", "yesterday"].map((date) => ({
        title: `date ${date}`,
        field: "date",
        path: (e: Existing) => `/athletes/athletes/${e.athleteId}/session/after/${date}`
      }))
    ]
  },
  {
    method: "GET",
    path: () => "/athletes/athletes/1/session/between/2026-01-01/2026-12-31",
    caller: "ATHLETE",
    shape: "400 problem",
    cases: [
      ...badIds((id) => `/athletes/athletes/${id}/session/between/2026-01-01/2026-12-31`),
      {
        title: "startDate 2026-13-01",
        field: "startDate",
        path: (e) => `/athletes/athletes/${e.athleteId}/session/between/2026-13-01/2026-12-31`
      },
      {
        title: "startDate 01/01/2026",
        field: "startDate",
        path: (e) => `/athletes/athletes/${e.athleteId}/session/between/01%2F01%2F2026/2026-12-31`
      },
      {
        title: "endDate 2026-12-32",
        field: "endDate",
        path: (e) => `/athletes/athletes/${e.athleteId}/session/between/2026-01-01/2026-12-32`
      },
      {
        title: "endDate now",
        field: "endDate",
        path: (e) => `/athletes/athletes/${e.athleteId}/session/between/2026-01-01/now`
      }
    ]
  },

  {
    method: "POST",
    path: () => "/session/create",
    caller: "COACH",
    shape: "session create 400 text",
    valid: () => ({ name: "Bad", creneau: "2026-11-21T18:30:00", duree: 60 }),
    cases: [
      ...malformedBodies,
      { title: "a negative id", field: "id", json: { id: -1 } },
      { title: "name of the wrong type", field: "name", json: { name: 5 } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "groupe over 200 characters", field: "groupe", json: { groupe: long } },
      { title: "groupe with a NUL character", field: "groupe", json: { groupe: "a\u0000b" } },
      { title: "isRecurrent a string", field: "isRecurrent", json: { isRecurrent: "yes" } },
      { title: "creneau with a space", field: "creneau", json: { creneau: "2026-11-21 18:30:00" } },
      { title: "creneau with an offset", field: "creneau", json: { creneau: "2026-11-21T18:30:00Z" } },
      { title: "creneau at 25 o'clock", field: "creneau", json: { creneau: "2026-11-21T25:00:00" } },
      { title: "creneau a date only", field: "creneau", json: { creneau: "2026-11-21" } },
      { title: "duree negative", field: "duree", json: { duree: -1 } },
      { title: "duree not an integer", field: "duree", json: { duree: 1.5 } },
      { title: "duree a string", field: "duree", json: { duree: "60" } },
      { title: "coachId a string", field: "coachId", json: { coachId: "x" } },
      { title: "athleteIds not an array", field: "athleteIds", json: { athleteIds: 1 } },
      { title: "athleteIds with a non-integer", field: "athleteIds", json: { athleteIds: [1.5] } },
      { title: "athleteIds over 10,000 items", field: "athleteIds", json: { athleteIds: tooMany(1) } },
      { title: "activiteIds with a negative id", field: "activiteIds", json: { activiteIds: [-1] } }
    ]
  },
  {
    method: "GET",
    path: () => "/session/1",
    caller: "COACH",
    shape: "400 problem",
    cases: badIds((id) => `/session/${id}`)
  },
  {
    method: "DELETE",
    path: () => "/session/delete/1",
    caller: "COACH",
    shape: "400 problem",
    cases: badIds((id) => `/session/delete/${id}`)
  },
  {
    method: "PUT",
    path: (e) => `/session/update/${e.sessionId}`,
    caller: "COACH",
    shape: "400 problem",
    valid: () => ({ duree: 5 }),
    cases: [
      ...badIds((id) => `/session/update/${id}`),
      ...malformedBodies,
      { title: "duree negative", field: "duree", json: { duree: -1 } },
      { title: "athleteIds with a string", field: "athleteIds", json: { athleteIds: ["1"] } },
      { title: "athleteIds over 10,000 items", field: "athleteIds", json: { athleteIds: tooMany(1) } },
      { title: "activiteIds not an array", field: "activiteIds", json: { activiteIds: {} } },
      { title: "an ignored field of the wrong type (name)", field: "name", json: { name: 5 } },
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } },
      { title: "an ignored field out of range (creneau)", field: "creneau", json: { creneau: "tomorrow" } }
    ]
  },

  ...coachTargets(""),
  ...coachTargets("/coaches"),

  {
    method: "POST",
    path: () => "/users/create",
    caller: "ADMIN",
    shape: "400 problem",
    valid: () => ({ name: "bad-input-user", role: "COACH", password: "long-enough-password" }),
    cases: [
      ...malformedBodies,
      { title: "name missing", field: "name", json: { name: undefined } },
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "password missing", field: "password", json: { password: undefined } },
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } },
      { title: "password of the wrong type", field: "password", json: { password: 12345678 } },
      { title: "role of the wrong type", field: "role", json: { role: 1 } },
      { title: "coachId negative", field: "coachId", json: { coachId: -1 } }
    ]
  },
  {
    method: "GET",
    path: () => "/users/1",
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `/users/${id}`)
  },
  {
    method: "PUT",
    path: (e) => `/users/update/${e.userId}`,
    caller: "ADMIN",
    shape: "400 problem",
    cases: [
      ...badIds((id) => `/users/update/${id}`).map((c) => ({ ...c, json: {} })),
      ...malformedBodies,
      { title: "email of the wrong type", field: "email", json: { email: 5 } },
      { title: "name over 200 characters", field: "name", json: { name: long } }
    ]
  },
  {
    method: "DELETE",
    path: () => "/users/delete/1",
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `/users/delete/${id}`)
  },

  {
    method: "POST",
    path: () => "/admins/create",
    caller: "ADMIN",
    shape: "400 problem",
    cases: [
      ...malformedBodies,
      { title: "name over 200 characters", field: "name", json: { name: long } },
      { title: "a non-integer id", field: "id", json: { id: 2.5 } },
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } }
    ]
  },
  {
    method: "GET",
    path: () => "/admins/1",
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `/admins/${id}`)
  },
  {
    method: "PUT",
    path: (e) => `/admins/update/${e.adminId}`,
    caller: "ADMIN",
    shape: "400 problem",
    cases: [
      ...badIds((id) => `/admins/update/${id}`).map((c) => ({ ...c, json: {} })),
      ...malformedBodies,
      { title: "name of the wrong type", field: "name", json: { name: [] } }
    ]
  },
  {
    method: "DELETE",
    path: () => "/admins/delete/1",
    caller: "ADMIN",
    shape: "400 problem",
    cases: badIds((id) => `/admins/delete/${id}`)
  },

  {
    method: "POST",
    path: () => "/auth/login",
    caller: "none",
    shape: "400 problem",
    valid: () => ({ name: "head-admin", password: "wrong-but-well-formed" }),
    cases: [
      ...malformedBodies,
      { title: "name missing", field: "name", json: { name: undefined } },
      { title: "password of the wrong type", field: "password", json: { password: 5 } },
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } },
      { title: "name over 200 characters", field: "name", json: { name: long } }
    ]
  }
]

const hasBody = (target: Target) => target.method === "POST" || target.method === "PUT"

/** `PUT /athletes/{id}`: the target's path with its ids written as the OpenAPI document does. */
const routeOf = (target: Target) => {
  const path = target.path({ sessionId: 1, activityId: 1, athleteId: 1, coachId: 1, userId: 1, adminId: 1 })
  return `${target.method} ${path.replace(/\/1(?=\/|$)/gu, "/{id}")}`
}

/** The lists a bad request must leave as they were. */
const snapshot = async (club: Club) => {
  const [activities, sessions, athletes, coaches, users, admins] = await Promise.all([
    club.coach.get("/activite/all"),
    club.coach.get("/session/all"),
    club.admin.post("/athletes/all"),
    club.admin.get("/all"),
    club.admin.get("/users/all"),
    club.admin.get("/admins/all")
  ])
  return {
    activities: activities.body,
    sessions: sessions.body,
    athletes: athletes.body,
    coaches: coaches.body,
    users: users.body,
    admins: admins.body
  }
}

await onEveryDatabase("Bad input", (club) => {
  let existing: Existing | undefined
  let before: Awaited<ReturnType<typeof snapshot>> | undefined
  const existingOf = async () => {
    if (existing === undefined) {
      const athlete = await createAthlete(club(), { name: "Unchanged athlete" })
      const session = await createSession(club(), {
        name: "Unchanged session",
        creneau: "2026-06-01T09:00:00",
        duree: 30,
        athleteIds: [athlete.id]
      })
      const activityId = await createActivity(club(), session.id, { name: "Unchanged activity", theme: "t", duree: 3 })
      const coach = await createCoach(club(), { name: "Unchanged coach" })
      const admin = (await club().admin.post("/admins/create", { name: "Unchanged admin" })).body as { id: number }
      existing = {
        sessionId: session.id,
        activityId,
        athleteId: athlete.id,
        coachId: coach.id,
        userId: club().user.COACH.id,
        adminId: admin.id
      }
      before = await snapshot(club())
    }
    return existing
  }

  for (const target of targets) {
    describe(`${routeOf(target)} → ${target.shape}`, () => {
      for (const bad of target.cases) {
        it(`${bad.title} (${bad.field})`, async () => {
          const e = await existingOf()
          // Each case breaks one thing of the target's valid body (or sends its own raw body).
          const json = bad.json === undefined
            ? hasBody(target) ? target.valid?.(e) ?? {} : undefined
            : { ...target.valid?.(e), ...bad.json }
          const options = bad.body !== undefined ? { body: bad.body } : json === undefined ? {} : { json }
          const reply = await club().as(target.caller).send(target.method, (bad.path ?? target.path)(e), options)
          expectRefusedInput(reply, target.shape, bad.field)
        })
      }
      if (hasBody(target)) {
        it("a body over 1 MiB: 413 problem+json", async () => {
          const e = await existingOf()
          const json = { ...target.valid?.(e), name: "x".repeat(1024 * 1024) }
          const reply = await club().as(target.caller).send(target.method, target.path(e), { json })
          expectProblem(reply, 413)
        })
      }
    })
  }

  it("leaves every list unchanged: no bad request wrote anything", async () => {
    await existingOf()
    expect(await snapshot(club())).toEqual(before)
  })

  it("accepts the well-formed bodies the cases start from, so each case fails for its own fault", async () => {
    const e = await existingOf()
    for (const target of targets.filter((t) => t.valid !== undefined && t.path(e) !== "/auth/login")) {
      const reply = await club().as(target.caller).send(target.method, target.path(e), { json: target.valid!(e) })
      expect(reply.status, routeOf(target)).toBeLessThan(300)
    }
  })

  it("never answers a 5xx, except the seed's activity 500s", () => {
    for (const reply of club().replies.filter((r) => r.status >= 500)) {
      expect(`${reply.method} ${reply.path}`).toMatch(
        /^(POST \/activite\/(create|update\/[^/]+)|DELETE \/activite\/delete\/[^/]+)$/u
      )
      expect(reply.contentType).toBe("text/plain")
      expect(reply.text).toMatch(/^Error: /u)
    }
  })
})
