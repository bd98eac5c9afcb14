import { DeliveredEvent } from "@club/core"
import { eventually } from "@club/test-support"
import { createActivity, createAthlete, createSession, createUser } from "@club/test-support/rest"
import { Schema } from "effect"
import { expect, it } from "vitest"
import { onEveryDatabase } from "../rest/support/club.ts"
import { type Received, receiverOfTheFile, quickDeliveries } from "./Receiver.ts"

/**
 * Issue 42 item 6 over the wire: sessions, series, activities and users reach a webhook, through
 * the seed's endpoints and /planning alike, each body one of the catalogue's (docs/events.md).
 */
const secret = "receiver-secret-0123456789"
const receiver = receiverOfTheFile()

const expectStatus = (reply: { status: number; text: string }, status: number) =>
  expect(reply.status, reply.text).toBe(status)

await onEveryDatabase("Domain events delivered to webhooks", (club) => {
  it("a session created, moved and deleted, an activity, a series and its cancelled occurrence, a user", async () => {
    receiver().reset("ok")
    const created = await club().admin.post("/attendance/webhooks", { url: receiver().url, secret })
    expectStatus(created, 201)
    const coach = club().coach

    const athlete = await createAthlete(club())
    const session = await createSession(club(), {
      athleteIds: [athlete.id],
      name: "Evening",
      creneau: "2099-07-01T18:00:00",
      duree: 60,
      coachId: club().coachId
    })
    const activityId = await createActivity(club(), session.id, { name: "Sprints", theme: "speed", duree: 20 })
    expectStatus(
      await coach.send("PATCH", `/planning/sessions/${session.id}`, { json: { creneau: "2099-07-01T19:00:00" } }),
      200
    )
    expectStatus(await coach.delete(`/session/delete/${session.id}`), 200)

    const series = await coach.post("/planning/series", {
      name: "Track",
      groupe: null,
      coachId: club().coachId,
      duree: 75,
      start: "2027-01-04T18:00:00",
      rrule: "FREQ=WEEKLY;COUNT=3",
      athleteIds: []
    })
    expectStatus(series, 201)
    const seriesId = (series.body as { id: number }).id
    const [, second] = (series.body as { occurrences: ReadonlyArray<{ sessionId: number }> }).occurrences
    const cancelled = await coach.delete(`/planning/series/${seriesId}/occurrences/${second!.sessionId}`)
    expect(cancelled.status, cancelled.text).toBeLessThan(300)

    const user = await createUser(club(), { email: "events@club.test" })
    expectStatus(await club().admin.put(`/users/update/${user.id}`, { name: `${user.name}-renamed` }), 200)
    expect((await club().admin.delete(`/users/delete/${user.id}`)).status).toBeLessThan(300)

    /** This test's events: those of its sessions, its series and its user. */
    const ours = (r: Received) =>
      r.event.sessionId === session.id || r.event.sessionId === second!.sessionId ||
      r.event.data["seriesId"] === seriesId || r.event.data["userId"] === user.id
    const received = () => {
      const seen = new Set<number>()
      return receiver().received.filter((r) => ours(r) && !seen.has(r.eventId) && seen.add(r.eventId))
    }
    expect(await eventually(async () => received().length >= 9, 30_000)).toBe(true)
    const events = received().map((r) => Schema.decodeUnknownSync(DeliveredEvent)(JSON.parse(r.body)))
    expect(events.map((e) => [e.type, "sessionId" in e ? e.sessionId : null])).toEqual([
      ["sessionCreated", session.id],
      ["activityCreated", session.id],
      ["sessionChanged", session.id],
      ["sessionCancelled", session.id],
      ["seriesCreated", null],
      ["sessionCancelled", second!.sessionId],
      ["userCreated", null],
      ["userChanged", null],
      ["userDeleted", null]
    ].slice(0, events.length))
    expect(events.length).toBe(9)
    expect(events[1]!.data).toEqual({ activityId, name: "Sprints", theme: "speed", duree: 20 })
    // The move, as a "session moved" notice tells it.
    expect(events[2]!.data).toMatchObject({
      name: "Evening",
      creneau: "2099-07-01T19:00:00",
      previousCreneau: "2099-07-01T18:00:00",
      duree: 60,
      previousDuree: 60,
      seriesId: null
    })
    expect(events[3]!.data).toEqual({
      name: "Evening",
      creneau: "2099-07-01T19:00:00",
      duree: 60,
      seriesId: null,
      groupe: null,
      athleteIds: [athlete.id]
    })
    expect(events[5]!.data).toEqual({
      name: "Track",
      creneau: "2027-01-11T18:00:00",
      duree: 75,
      seriesId,
      groupe: null,
      athleteIds: []
    })
    // A user's event carries no password, hash, token or email address.
    const userCreated = received().find((r) => r.event.type === "userCreated")!.body
    expect(JSON.parse(userCreated).data).toEqual({
      userId: user.id,
      name: user.name,
      role: "COACH",
      coachId: user.coachId,
      athleteId: null,
      adminId: null
    })
    expect(userCreated).not.toContain(user.password)
    expect(userCreated).not.toMatch(/password|hash|token|events@club\.test/iu)
    await club().admin.delete(`/attendance/webhooks/${(created.body as { id: number }).id}`)
  })
}, { env: quickDeliveries })
