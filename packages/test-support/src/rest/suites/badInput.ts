import { describe, expect, it } from "vitest"
import { expectEmpty, expectProblem, expectText } from "../../expectations.ts"
import type { Reply } from "../../Reply.ts"
import type { Club } from "../Club.ts"
import { createActivity, createAthlete, createCoach, createSession } from "../records.ts"
import { type Existing, type Shape, type Target, targets } from "./badInputTargets.ts"

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

export const carriesBody = (target: Target) => target.method === "POST" || target.method === "PUT"

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

/** `{"name":"` and a byte that is never UTF-8, then `"}`. */
export const notUtf8 = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])

export interface BadInputOptions {
  /** Cases of a harness's own, declared with each target's (`existing` creates the records the targets name). */
  readonly perTarget?: (target: Target, existing: () => Promise<Existing>) => void
}

/** Input every endpoint cannot decode, and how it answers it (docs/DECISIONS.md), on any harness. */
export const badInput = (club: () => Club, options: BadInputOptions = {}) => {
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
            ? carriesBody(target) ? target.valid?.(e) ?? {} : undefined
            : { ...target.valid?.(e), ...bad.json }
          const options = bad.body !== undefined ? { body: bad.body } : json === undefined ? {} : { json }
          const reply = await club().as(target.caller).send(target.method, (bad.path ?? target.path)(e), options)
          expectRefusedInput(reply, target.shape, bad.field)
        })
      }
      options.perTarget?.(target, existingOf)
    })
  }

  describe("a body that is not JSON text", () => {
    it("of another media type than application/json: 415 problem+json naming what was sent", async () => {
      await existingOf()
      const reply = await club().admin.post("/coaches/create", undefined, {
        body: "{\"name\":\"x\"}",
        headers: { "content-type": "text/plain" }
      })
      expectProblem(reply, 415, /^body: Expected content-type application\/json, got text\/plain/u)
    })

    it("of bytes that are not UTF-8: 400 problem+json naming the body", async () => {
      await existingOf()
      const reply = await club().admin.post("/coaches/create", undefined, { body: notUtf8 })
      expectProblem(reply, 400, "body: Expected JSON text in UTF-8, got bytes that are not UTF-8")
    })
  })

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
}
