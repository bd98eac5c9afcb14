import { describe, it } from "vitest"
import { type Club, clubForFile, type Role } from "../support/club.ts"
import { expectEmpty, expectProblem, expectText } from "@club/test-support/expectations"
import type { Reply } from "../support/InProcessApp.ts"
import { createActivity, createAthlete, createSession } from "../support/records.ts"

/**
 * How each endpoint answers input it cannot decode (docs/DECISIONS.md): the activity writes with
 * the seed's 500 `Error: <field>: ...`, the athlete update with its empty 204, the session create
 * with a 400 plain text, every other endpoint with a 400 problem+json; each names the field.
 */
type Shape = "activity 500 text" | "athlete update 204" | "session create 400 text" | "400 problem"

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")
/** `field: message` (or an item of it: `athleteIds.0: ...`), possibly after other issues. */
const naming = (field: string) => `(.*; )?${escape(field)}(\\.\\d+)?: `

const expectRefused = (reply: Reply, shape: Shape, field: string) => {
  switch (shape) {
    case "activity 500 text":
      return expectText(reply, 500, new RegExp(`^Error: ${naming(field)}`, "u"))
    case "athlete update 204":
      return expectEmpty(reply, 204)
    case "session create 400 text":
      return expectText(reply, 400, new RegExp(`^${naming(field)}`, "u"))
    case "400 problem":
      return expectProblem(reply, 400, new RegExp(`^${naming(field)}`, "u"))
  }
}

interface Existing {
  readonly sessionId: number
  readonly activityId: number
  readonly athleteId: number
}

interface Case {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: (existing: Existing) => string
  readonly caller: Role
  readonly shape: Shape
  readonly field: string
  readonly title: string
  readonly body?: string
  readonly json?: unknown
  readonly headers?: Record<string, string>
}

const long = "x".repeat(201)

const cases: ReadonlyArray<Case> = [
  {
    method: "POST",
    path: () => "/activite/create",
    caller: "COACH",
    shape: "activity 500 text",
    field: "body",
    title: "malformed JSON",
    body: "{\"name\": "
  },
  {
    method: "POST",
    path: () => "/activite/create",
    caller: "COACH",
    shape: "activity 500 text",
    field: "sessionId",
    title: "sessionId a string",
    json: { sessionId: "1" }
  },
  {
    method: "POST",
    path: (e) => `/activite/update/${e.activityId}`,
    caller: "COACH",
    shape: "activity 500 text",
    field: "duree",
    title: "duree negative",
    json: { duree: -1, sessionId: 1 }
  },
  {
    method: "DELETE",
    path: () => "/activite/delete/abc",
    caller: "COACH",
    shape: "activity 500 text",
    field: "id",
    title: "an id that is not a number"
  },
  {
    method: "PUT",
    path: (e) => `/athletes/${e.athleteId}`,
    caller: "ADMIN",
    shape: "athlete update 204",
    field: "name",
    title: "name over 200 characters",
    json: { name: long }
  },
  {
    method: "PUT",
    path: (e) => `/athletes/${e.athleteId}`,
    caller: "ADMIN",
    shape: "athlete update 204",
    field: "body",
    title: "not JSON at all",
    body: "name=Bob"
  },
  {
    method: "POST",
    path: () => "/session/create",
    caller: "COACH",
    shape: "session create 400 text",
    field: "athleteIds",
    title: "athleteIds not integers",
    json: { athleteIds: ["a"] }
  },
  {
    method: "POST",
    path: () => "/session/create",
    caller: "COACH",
    shape: "session create 400 text",
    field: "body",
    title: "a JSON array",
    body: "[]"
  },
  {
    method: "PUT",
    path: (e) => `/session/update/${e.sessionId}`,
    caller: "COACH",
    shape: "400 problem",
    field: "duree",
    title: "duree a string",
    json: { duree: "1" }
  },
  { method: "GET", path: () => "/session/0", caller: "COACH", shape: "400 problem", field: "id", title: "id 0" },
  { method: "GET", path: () => "/session/1.5", caller: "COACH", shape: "400 problem", field: "id", title: "id 1.5" },
  {
    method: "GET",
    path: () => "/session/9007199254740993",
    caller: "COACH",
    shape: "400 problem",
    field: "id",
    title: "an id beyond the safe integers"
  },
  {
    method: "POST",
    path: () => "/athletes/create",
    caller: "ADMIN",
    shape: "400 problem",
    field: "name",
    title: "name with a NUL character",
    json: { name: "a\u0000b" }
  },
  {
    method: "POST",
    path: () => "/coaches/create",
    caller: "ADMIN",
    shape: "400 problem",
    field: "id",
    title: "a negative id",
    json: { id: -1, name: "x" }
  },
  {
    method: "POST",
    path: () => "/users/create",
    caller: "ADMIN",
    shape: "400 problem",
    field: "name",
    title: "name missing",
    json: { role: "ADMIN", password: "password-123" }
  },
  {
    method: "GET",
    path: () => "/session/1;x",
    caller: "COACH",
    shape: "400 problem",
    field: "id",
    title: "a ';' in a path segment"
  },
  {
    method: "POST",
    path: () => "/coaches/create",
    caller: "ADMIN",
    shape: "400 problem",
    field: "body",
    title: "another media type",
    body: "{\"name\":\"x\"}",
    headers: { "content-type": "text/plain" }
  }
]

let existing: Existing | undefined
const club = clubForFile()

const existingRecords = async (club: Club): Promise<Existing> => {
  if (existing !== undefined) return existing
  const session = await createSession(club)
  existing = {
    sessionId: session.id,
    activityId: await createActivity(club, session.id),
    athleteId: (await createAthlete(club)).id
  }
  return existing
}

describe("a body that is not UTF-8", () => {
  const notUtf8 = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])

  it.each([true, false])("is refused naming the body, with content-length: %s", async (announceLength) => {
    const reply = await club().admin.post("/coaches/create", undefined, { body: notUtf8, announceLength })
    expectProblem(reply, 400, "body: Expected JSON text in UTF-8, got bytes that are not UTF-8")
  })
})

describe("input an endpoint cannot decode", () => {
  it.each(cases)("$method $title: the endpoint's refusal, naming $field", async (c) => {
    const records = await existingRecords(club())
    const body = c.body
    const reply = await club().as(c.caller).send(c.method, c.path(records), {
      ...(body === undefined ? {} : { body }),
      ...(c.json === undefined ? {} : { json: c.json }),
      ...(c.headers === undefined ? {} : { headers: c.headers })
    })
    if (c.title === "another media type" && c.shape === "400 problem") {
      return expectProblem(reply, 415, /^body: Expected content-type application\/json, got text\/plain/u)
    }
    expectRefused(reply, c.shape, c.field)
  })
})
