import type { Role } from "../Club.ts"

/**
 * How an endpoint answers input it cannot decode (docs/DECISIONS.md): activity create, update and
 * delete with the seed's 500 `Error: <field>: ...`; the athlete update with its empty 204; session
 * create with a 400 plain text naming the field; everything else with a 400 problem+json whose
 * detail names the field.
 */
export type Shape = "activity 500 text" | "athlete update 204" | "session create 400 text" | "400 problem"

/** The records the requests below name; they must come out of the suite unchanged. */
export interface Existing {
  readonly sessionId: number
  readonly activityId: number
  readonly athleteId: number
  readonly coachId: number
  readonly userId: number
  readonly adminId: number
}

export interface Case {
  readonly title: string
  /** The failing part: a body field, `body`, or a path parameter. */
  readonly field: string
  readonly path?: (existing: Existing) => string
  /** A raw body, sent as is. */
  readonly body?: string
  /** JSON fields laid over the target's valid body. */
  readonly json?: Record<string, unknown>
}

export interface Target {
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

/** A path id that is not a positive integer within JavaScript's safe range (a name, `abc`, is no route: 404). */
const badIds = (path: (id: string) => string, field = "id"): Array<Case> =>
  ["0", "-1", "1.5", "07", beyondSafe].map((id) => ({ title: `id ${id}`, field, path: () => path(id) }))

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

export const targets: ReadonlyArray<Target> = [
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
      { title: "duree negative", field: "duree", json: { duree: -1 } },
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
      { title: "name with a NUL character", field: "name", json: { name: "a\u0000b" } },
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
      { title: "athleteIds with a string", field: "athleteIds", json: { athleteIds: ["a"] } },
      { title: "athleteIds over 10,000 items", field: "athleteIds", json: { athleteIds: tooMany(1) } },
      { title: "activiteIds with a negative id", field: "activiteIds", json: { activiteIds: [-1] } }
    ]
  },
  {
    method: "GET",
    path: () => "/session/1",
    caller: "COACH",
    shape: "400 problem",
    cases: [
      ...badIds((id) => `/session/${id}`),
      { title: "a ';' in the path segment", field: "id", path: () => "/session/1;x" }
    ]
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
      { title: "duree a string", field: "duree", json: { duree: "1" } },
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
