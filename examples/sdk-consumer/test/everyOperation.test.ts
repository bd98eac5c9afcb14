import { ClubClient } from "@club/client-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { failure } from "./failure.ts"
import { ADMIN_NAME, ADMIN_PASSWORD, type RunningServer, startServer } from "./startServer.ts"

let server: RunningServer
let admin: ClubClient
let coach: ClubClient
let coachId: number

beforeAll(async () => {
  server = await startServer()
  admin = await ClubClient.login({ baseUrl: server.baseUrl, name: ADMIN_NAME, password: ADMIN_PASSWORD })
  coachId = (await admin.coaches.create({ name: "Every Op" })).id
  await admin.users.create({ name: "every-op", role: "COACH", password: "every-op-password", coachId })
  coach = await ClubClient.login({ baseUrl: server.baseUrl, name: "every-op", password: "every-op-password" })
})
afterAll(() => server?.stop())

// The flow test tells the story; this one calls each operation of the Promise face once.
describe("every operation of the contract through the built SDK", () => {
  it("health", async () => {
    expect(await admin.health.live()).toEqual({ status: "ok" })
    expect(await admin.health.ready()).toEqual({ status: "ready" })
  })

  it("admins", async () => {
    const created = await admin.admins.create({ name: "Second Admin" })
    expect(await admin.admins.get(created.id)).toEqual(created)
    expect((await admin.admins.all()).map((one) => one.id)).toContain(created.id)
    expect(await admin.admins.update(created.id, { name: "Deputy" })).toEqual({ id: created.id, name: "Deputy" })
    await admin.admins.delete(created.id)
    expect(await failure(admin.admins.get(created.id))).toMatchObject({ tag: "NotFound", status: 404, message: "Admin not found" })
  })

  it("coaches", async () => {
    const created = await admin.coaches.create({ name: "Temp Coach" })
    expect((await admin.coaches.all()).map((one) => one.id)).toContain(created.id)
    expect(await admin.coaches.update(created.id, { name: "Renamed" })).toEqual({ id: created.id, name: "Renamed" })
    await admin.coaches.delete(created.id)
    expect(await failure(admin.coaches.delete(created.id))).toMatchObject({ tag: "NotFound", status: 404 })
  })

  it("users", async () => {
    const created = await admin.users.create({ name: "temp-athlete", role: "ATHLETE", password: "temp-password-1" })
    expect(await admin.users.get(created.id)).toEqual(created)
    expect((await admin.users.all()).map((one) => one.id)).toContain(created.id)
    expect(await admin.users.update(created.id, { email: "temp@club.test" })).toMatchObject({ email: "temp@club.test" })
    expect(await failure(admin.users.create({ name: "temp-athlete", role: "ATHLETE", password: "temp-password-1" })))
      .toMatchObject({ tag: "Conflict", status: 409 })
    await admin.users.delete(created.id)
    expect(await failure(admin.users.get(created.id))).toMatchObject({ tag: "NotFound", status: 404 })
  })

  it("athletes, sessions, activities and the session queries", async () => {
    const athlete = await admin.athletes.create({ name: "Temp Athlete", categorie: "Junior", niveau: "Club" })
    expect(await admin.athletes.get(athlete.id)).toEqual(athlete)
    expect((await admin.athletes.all()).map((one) => one.id)).toContain(athlete.id)

    const session = await coach.sessions.create({ name: "Drills", creneau: "2026-03-02T18:00:00", duree: 45, coachId })
    expect((await coach.sessions.all()).map((one) => one.id)).toContain(session.id)
    expect(await admin.athletes.update(athlete.id, { name: "Temp Athlete", sessionIds: [session.id] }))
      .toMatchObject({ id: athlete.id, name: "Temp Athlete" })
    expect(await failure(admin.athletes.update(athlete.id, { sessionIds: [999_999] })))
      .toMatchObject({ tag: "AthleteUpdateFailed", status: 204 })

    expect(await coach.activities.create({ name: "Skips", theme: "technique", sessionId: session.id })).toBe("Activity created")
    const activityId = (await coach.sessions.get(session.id)).activiteIds[0]!
    expect(await coach.activities.update(activityId, { name: "High knees", theme: "technique", duree: null, sessionId: session.id }))
      .toBe("Activity modified")
    expect(await coach.activities.get(activityId)).toMatchObject({ name: "High knees", duree: 0 })
    expect((await coach.activities.all()).map((one) => one.name)).toContain("High knees")

    await coach.sessions.update(session.id, { duree: 50, athleteIds: [athlete.id] })
    expect(await coach.sessions.get(session.id)).toMatchObject({ duree: 50, athleteIds: [athlete.id] })
    expect(await coach.athletes.sessions(athlete.id)).toEqual([{ id: session.id, name: "Drills" }])
    expect((await coach.athletes.allSessions()).map((one) => one.id)).toContain(session.id)
    expect(await coach.athletes.activitiesOfSession(session.id)).toEqual([{ id: activityId, name: "High knees" }])
    expect(await coach.athletes.sessionsAfter(athlete.id, "2026-03-01")).toEqual([{ id: session.id, name: "Drills" }])
    expect(await coach.athletes.sessionsBetween(athlete.id, "2026-03-03", "2026-03-31")).toEqual([])

    expect(await coach.activities.delete(activityId)).toBe("Activity deleted")
    expect(await failure(coach.activities.delete(activityId))).toMatchObject({ tag: "ActivityFailed", status: 500 })
    expect(await coach.sessions.delete(session.id)).toBe("Session deleted successfully")
    expect(await failure(coach.sessions.delete(session.id))).toMatchObject({ tag: "SessionNotFoundText", status: 404 })
    await admin.athletes.delete(athlete.id)
    expect(await failure(admin.athletes.delete(athlete.id))).toMatchObject({ tag: "NotFoundEmpty", status: 404 })
  })
})
