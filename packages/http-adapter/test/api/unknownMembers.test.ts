import { createActivity, createAthlete, createCoach, createSession, unique } from "@club/test-support/rest"
import { expectProblem } from "@club/test-support/expectations"
import { beforeAll, describe, expect, it } from "vitest"
import { type Club, clubForFile } from "../support/club.ts"
import { contractEndpoints } from "../support/contractEndpoints.ts"

const club = clubForFile()

/**
 * The groups of the project's own endpoints, whose bodies refuse members they do not declare;
 * every other group is the seed's, whose bodies ignore them (docs/specification/CONTRACT.md).
 */
const projectGroups = new Set([
  "planning",
  "series",
  "attendance",
  "webhooks",
  "feedToken",
  "feeds",
  "groups",
  "noticePreferences"
])

interface Records {
  readonly sessionId: number
  readonly athleteId: number
  readonly coachId: number
  readonly activityId: number
  readonly userId: number
  readonly adminId: number
  readonly seriesId: number
  readonly occurrenceId: number
}

interface Call {
  readonly path: (records: Records) => string
  /** A body the endpoint takes as is: the extra member is the only thing wrong with it. */
  readonly body: (records: Records) => Record<string, unknown>
  /** Who sends it (a role allowed to; the role is checked before the body is decoded). */
  readonly caller: "ADMIN" | "COACH"
  /** The status the seed's endpoint answers with the extra member, ignored. */
  readonly accepted?: number
}

/** A request for every endpoint of the contract that takes a JSON body, by operation id. */
const calls: Record<string, Call> = {
  "planning.createSession": {
    caller: "COACH",
    path: () => "/planning/sessions",
    body: () => ({
      name: "Strict",
      groupe: null,
      coachId: null,
      athleteIds: [],
      duree: 30,
      creneau: "2031-01-06T10:00:00"
    })
  },
  "planning.changeSession": {
    caller: "COACH",
    path: (r) => `/planning/sessions/${r.sessionId}`,
    body: () => ({ name: "Renamed" })
  },
  "series.createSeries": {
    caller: "COACH",
    path: () => "/planning/series",
    body: () => ({
      name: "Strict",
      groupe: null,
      coachId: null,
      duree: 30,
      start: "2031-01-06T10:00:00",
      rrule: "FREQ=WEEKLY;COUNT=2",
      athleteIds: []
    })
  },
  "series.changeSeries": {
    caller: "COACH",
    path: (r) => `/planning/series/${r.seriesId}`,
    body: () => ({ name: "Renamed" })
  },
  "series.changeOccurrence": {
    caller: "COACH",
    path: (r) => `/planning/series/${r.seriesId}/occurrences/${r.occurrenceId}?scope=one`,
    body: () => ({ name: "Renamed" })
  },
  "attendance.configureReplies": {
    caller: "COACH",
    path: (r) => `/attendance/sessions/${r.sessionId}/settings`,
    body: () => ({ capacity: 5 })
  },
  "attendance.reply": {
    caller: "COACH",
    path: (r) => `/attendance/athletes/${r.athleteId}/replies/${r.sessionId}`,
    body: () => ({ answer: "yes" })
  },
  "attendance.recordPresence": {
    caller: "COACH",
    path: (r) => `/attendance/sessions/${r.sessionId}/presence`,
    body: () => ({ marks: [] })
  },
  "webhooks.registerWebhook": {
    caller: "ADMIN",
    path: () => "/attendance/webhooks",
    body: () => ({ url: "http://127.0.0.1:9/hook", secret: "a-secret-of-enough-length" })
  },
  // The body is decoded before the group or membership is looked for: the ids need not exist.
  "groups.createGroup": {
    caller: "ADMIN",
    path: () => "/groups",
    body: () => ({ name: "Strict", parentId: null, coachIds: [] })
  },
  "noticePreferences.setMine": {
    caller: "COACH",
    path: () => "/notices/preferences",
    body: () => ({ language: "en", emailEnabled: true, mutedKinds: [] })
  },
  "noticePreferences.setForUser": {
    caller: "ADMIN",
    path: (r) => `/notices/preferences/${r.userId}`,
    body: () => ({ language: null, emailEnabled: true, mutedKinds: ["reminder"] })
  },
  "groups.updateGroup": { caller: "ADMIN", path: () => "/groups/1", body: () => ({ name: "Strict" }) },
  "groups.startMembership": {
    caller: "ADMIN",
    path: () => "/groups/1/memberships",
    body: (r) => ({ athleteId: r.athleteId, from: "2027-01-01" })
  },
  "groups.endMembership": { caller: "ADMIN", path: () => "/memberships/1/end", body: () => ({ until: "2027-01-31" }) },
  "auth.login": {
    caller: "ADMIN",
    path: () => "/auth/login",
    body: () => ({ name: "head-admin", password: "admin-password-0" }),
    accepted: 200
  },
  "activities.create": {
    caller: "COACH",
    path: () => "/activite/create",
    body: (r) => ({ name: "Loose", theme: "t", duree: 1, dataActivite: [], sessionId: r.sessionId }),
    accepted: 201
  },
  "activities.update": {
    caller: "COACH",
    path: (r) => `/activite/update/${r.activityId}`,
    body: (r) => ({ name: "Loose", sessionId: r.sessionId }),
    accepted: 200
  },
  "athletes.create": {
    caller: "ADMIN",
    path: () => "/athletes/create",
    body: () => ({ name: "Loose", categorie: "c", niveau: "n" }),
    accepted: 201
  },
  "athletes.update": {
    caller: "ADMIN",
    path: (r) => `/athletes/${r.athleteId}`,
    body: () => ({ name: "Loose", categorie: "c", niveau: "n" }),
    accepted: 200
  },
  "sessions.create": {
    caller: "COACH",
    path: () => "/session/create",
    body: () => ({ name: "Loose", creneau: "2031-02-03T18:30:00", duree: 60 }),
    accepted: 201
  },
  "sessions.update": {
    caller: "COACH",
    path: (r) => `/session/update/${r.sessionId}`,
    body: () => ({ duree: 5 }),
    accepted: 204
  },
  "users.create": {
    caller: "ADMIN",
    path: () => "/users/create",
    body: () => ({ name: unique("loose-user"), role: "COACH", password: "long-enough-password" }),
    accepted: 201
  },
  "users.update": {
    caller: "ADMIN",
    path: (r) => `/users/update/${r.userId}`,
    body: () => ({ email: null }),
    accepted: 200
  },
  "coaches.create": { caller: "ADMIN", path: () => "/coaches/create", body: () => ({ name: "Loose" }), accepted: 201 },
  "coaches.update": {
    caller: "ADMIN",
    path: (r) => `/coaches/update/${r.coachId}`,
    body: () => ({ name: "Loose" }),
    accepted: 200
  },
  "rootCoaches.create": { caller: "ADMIN", path: () => "/create", body: () => ({ name: "Loose" }), accepted: 201 },
  "rootCoaches.update": {
    caller: "ADMIN",
    path: (r) => `/update/${r.coachId}`,
    body: () => ({ name: "Loose" }),
    accepted: 200
  },
  "admins.create": { caller: "ADMIN", path: () => "/admins/create", body: () => ({ name: "Loose" }), accepted: 201 },
  "admins.update": {
    caller: "ADMIN",
    path: (r) => `/admins/update/${r.adminId}`,
    body: () => ({ name: "Loose" }),
    accepted: 200
  }
}

/** RFC 8058's one-click body is a form, not JSON, and has one fixed member (the notices suite tests it). */
const formBodies = new Set(["unsubscribe.unsubscribe"])

const withBody = contractEndpoints().filter((endpoint) => endpoint.takesBody && !formBodies.has(endpoint.name))

describe("Unknown members of a JSON body", () => {
  let records: Records
  beforeAll(async () => {
    const c: Club = club()
    const session = await createSession(c, { creneau: "2031-01-06T08:00:00", duree: 60 })
    const admin = await c.admin.post("/admins/create", { name: "Loose" })
    const series = await c.coach.send("POST", "/planning/series", {
      json: {
        name: "S",
        groupe: null,
        coachId: null,
        duree: 30,
        start: "2026-12-15T10:00:00",
        rrule: "FREQ=WEEKLY;COUNT=2",
        athleteIds: []
      }
    })
    if (series.status !== 201) throw new Error(`The series: ${series.status} ${series.text}`)
    const seriesBody = series.body as { id: number; occurrences: Array<{ sessionId: number }> }
    records = {
      sessionId: session.id,
      athleteId: (await createAthlete(c)).id,
      coachId: (await createCoach(c)).id,
      activityId: await createActivity(c, session.id),
      userId: c.user.COACH.id,
      adminId: (admin.body as { id: number }).id,
      seriesId: seriesBody.id,
      occurrenceId: seriesBody.occurrences[0]!.sessionId
    }
  })

  it("every endpoint of the contract with a body has a request here", () => {
    expect(withBody.map((endpoint) => endpoint.name).filter((name) => calls[name] === undefined)).toEqual([])
  })

  it.each(withBody.filter((endpoint) => projectGroups.has(endpoint.name.split(".")[0]!)).map((e) => [e.name, e]))(
    "%s (the project's): 400 problem+json naming the member, nothing written",
    async (name, endpoint) => {
      const call = calls[name]!
      const reply = await club().as(call.caller).send(endpoint.method, call.path(records), {
        json: { ...call.body(records), unexpectedMember: 1 }
      })
      expectProblem(reply, 400, { detail: /unexpectedMember/u })
    }
  )

  it.each(withBody.filter((endpoint) => !projectGroups.has(endpoint.name.split(".")[0]!)).map((e) => [e.name, e]))(
    "%s (the seed's): the member is ignored",
    async (name, endpoint) => {
      const call = calls[name]!
      const reply = await club().as(call.caller).send(endpoint.method, call.path(records), {
        json: { ...call.body(records), unexpectedMember: 1 }
      })
      expect(reply.status, reply.text).toBe(call.accepted)
    }
  )

  it("an occurrence changed with the series' field `start` is refused naming it, and stays as it was", async () => {
    const path = `/planning/series/${records.seriesId}/occurrences/${records.occurrenceId}?scope=one`
    const reply = await club().coach.send("PATCH", path, { json: { start: "2026-12-15T11:00:00" } })
    expectProblem(reply, 400, { detail: /start/u })
    const session = await club().coach.get(`/session/${records.occurrenceId}`)
    expect(session.body).toMatchObject({ creneau: "2026-12-15T10:00:00" })
  })
})
