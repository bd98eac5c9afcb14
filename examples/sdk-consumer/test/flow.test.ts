import { ClubClient, type SessionDto } from "@club/client-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { failure } from "./failure.ts"
import { ADMIN_NAME, ADMIN_PASSWORD, type RunningServer, startServer } from "./startServer.ts"

const COACH_PASSWORD = "coach-password-1"
const ATHLETE_PASSWORD = "athlete-password-1"

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server?.stop())

// One club, built step by step: each test goes on from where the previous one stopped.
const club = {} as {
  admin: ClubClient
  coach: ClubClient
  athlete: ClubClient
  coachId: number
  athleteId: number
  otherAthleteId: number
  week: Record<"monday" | "wednesday" | "friday" | "saturday" | "nextMonth", SessionDto>
}

describe("a week at the club, through the Promise API of the built SDK", () => {
  it("the admin logs in", async () => {
    club.admin = await ClubClient.login({ baseUrl: server.baseUrl, name: ADMIN_NAME, password: ADMIN_PASSWORD })
    expect(club.admin.user).toMatchObject({ name: ADMIN_NAME, role: "ADMIN" })
    expect(club.admin.expiresAt!.getTime()).toBeGreaterThan(Date.now())
    expect(await club.admin.me()).toMatchObject({ name: ADMIN_NAME, role: "ADMIN" })
    expect(await club.admin.health.live()).toEqual({ status: "ok" })
  })

  it("creates a coach, two athletes, and users for the coach and one athlete", async () => {
    const coach = await club.admin.coaches.create({ name: "Claire Martin" })
    const athlete = await club.admin.athletes.create({ name: "Arno Petit", categorie: "Senior", niveau: "Regional" })
    const other = await club.admin.athletes.create({ name: "Bea Roux", categorie: "Junior", niveau: "National" })
    expect(coach).toEqual({ id: coach.id, name: "Claire Martin" })
    expect(athlete).toEqual({
      id: athlete.id,
      name: "Arno Petit",
      categorie: "Senior",
      niveau: "Regional",
      groupes: [],
      sessionIds: [],
      userId: null
    })
    Object.assign(club, { coachId: coach.id, athleteId: athlete.id, otherAthleteId: other.id })

    const coachUser = await club.admin.users.create({
      name: "claire",
      email: "claire@club.test",
      role: "COACH",
      password: COACH_PASSWORD,
      coachId: coach.id
    })
    const athleteUser = await club.admin.users.create({
      name: "arno",
      email: "arno@club.test",
      role: "ATHLETE",
      password: ATHLETE_PASSWORD,
      athleteId: athlete.id
    })
    expect(coachUser).toMatchObject({ name: "claire", role: "COACH", email: "claire@club.test" })
    expect(athleteUser).toMatchObject({ name: "arno", role: "ATHLETE" })
    expect((await club.admin.users.all()).map((user) => user.name)).toEqual(expect.arrayContaining(["claire", "arno"]))
    expect(await club.admin.coaches.get(coach.id)).toEqual(coach)
  })

  it("the coach logs in and plans a week of sessions, with activities", async () => {
    club.coach = await ClubClient.login({ baseUrl: server.baseUrl, name: "claire", password: COACH_PASSWORD })
    expect(club.coach.user).toMatchObject({ name: "claire", role: "COACH" })

    const plan = (name: string, creneau: string, athleteIds: ReadonlyArray<number>) =>
      club.coach.sessions.create({ name, creneau, duree: 60, isRecurrent: false, groupe: "Seniors", coachId: club.coachId, athleteIds })
    club.week = {
      monday: await plan("Endurance", "2026-01-05T18:00:00", [club.athleteId]),
      wednesday: await plan("Intervals", "2026-01-07T18:30:00", [club.athleteId, club.otherAthleteId]),
      friday: await plan("Juniors only", "2026-01-09T17:00:00", [club.otherAthleteId]),
      saturday: await plan("Long run", "2026-01-10T09:00:00", [club.athleteId]),
      nextMonth: await plan("Tempo", "2026-02-02T18:00:00", [club.athleteId])
    }
    expect(club.week.monday).toMatchObject({
      name: "Endurance",
      creneau: "2026-01-05T18:00:00",
      duree: 60,
      coachId: club.coachId,
      athleteIds: [club.athleteId],
      activiteIds: []
    })

    expect(await club.coach.activities.create({
      name: "Warm-up",
      theme: "endurance",
      duree: 15,
      dataActivite: ["jog", "drills"],
      sessionId: club.week.monday.id
    })).toBe("Activity created")
    expect(await club.coach.activities.create({ name: "6 x 800 m", theme: "speed", duree: 30, sessionId: club.week.wednesday.id }))
      .toBe("Activity created")

    const monday = await club.coach.sessions.get(club.week.monday.id)
    expect(monday.activiteIds).toHaveLength(1)
    expect(await club.coach.activities.get(monday.activiteIds[0]!)).toEqual({
      id: null,
      name: "Warm-up",
      theme: "endurance",
      duree: 15,
      dataActivite: ["jog", "drills"],
      sessionId: club.week.monday.id
    })
    expect((await club.coach.activities.byTheme("speed")).map((activity) => activity.name)).toEqual(["6 x 800 m"])
    expect(await club.coach.athletes.activitiesOfSession(club.week.monday.id)).toEqual([
      { id: monday.activiteIds[0], name: "Warm-up" }
    ])
  })

  it("the athlete logs in and sees only their sessions of the week", async () => {
    club.athlete = await ClubClient.login({ baseUrl: server.baseUrl, name: "arno", password: ATHLETE_PASSWORD })
    expect(await club.athlete.me()).toMatchObject({ name: "arno", role: "ATHLETE" })

    const week = await club.athlete.athletes.sessionsBetween(club.athleteId, "2026-01-04", "2026-01-11")
    expect(week).toEqual([
      { id: club.week.monday.id, name: "Endurance" },
      { id: club.week.wednesday.id, name: "Intervals" },
      { id: club.week.saturday.id, name: "Long run" }
    ])
    const fromThursday = await club.athlete.athletes.sessionsAfter(club.athleteId, "2026-01-08")
    expect(fromThursday.map((session) => session.name)).toEqual(["Long run", "Tempo"])
    expect((await club.athlete.athletes.sessions(club.athleteId)).map((session) => session.name).sort())
      .toEqual(["Endurance", "Intervals", "Long run", "Tempo"])
  })

  it("keeps a task list over Connect: create, list, delete", async () => {
    const task = await club.athlete.todo.createTask({ title: "Pack spikes", description: "For Saturday's long run" })
    expect(task).toMatchObject({ title: "Pack spikes", description: "For Saturday's long run", success: true })
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/)

    expect((await club.athlete.todo.listTasks()).map((listed) => listed.id)).toContain(task.id)
    // The same service through the two other transports the SDK offers.
    const binary = ClubClient.fromToken({ baseUrl: server.baseUrl, token: club.coach.token, todoProtocol: "connect-binary" })
    const grpcWeb = ClubClient.fromToken({ baseUrl: server.baseUrl, token: club.coach.token, todoProtocol: "grpc-web" })
    expect((await binary.todo.listTasks()).map((listed) => listed.id)).toContain(task.id)
    expect((await grpcWeb.todo.listTasks()).map((listed) => listed.id)).toContain(task.id)

    expect(await club.athlete.todo.deleteTask(task.id)).toMatchObject({ id: task.id, success: true })
    expect((await club.athlete.todo.listTasks()).map((listed) => listed.id)).not.toContain(task.id)
    expect(await club.athlete.todo.deleteTask(task.id)).toMatchObject({ id: task.id, success: false })
  })

  describe("failures arrive as ClubApiError, typed by tag", () => {
    it("an unknown session: 404 with the server's message", async () => {
      const error = await failure(club.coach.sessions.get(999_999))
      expect(error).toMatchObject({ tag: "SessionNotFoundText", status: 404 })
      expect(error.message).toMatch(/999999/)
    })

    it("an unknown coach: 404 Coach not found", async () => {
      expect(await failure(club.admin.coaches.get(999_999))).toMatchObject({
        tag: "NotFound",
        status: 404,
        message: "Coach not found"
      })
    })

    it("an unknown athlete: the seed's empty 404", async () => {
      expect(await failure(club.admin.athletes.get(999_999))).toMatchObject({ tag: "NotFoundEmpty", status: 404 })
    })

    it("an athlete may not plan a session: 403", async () => {
      const error = await failure(club.athlete.sessions.create({ name: "Self-coached", creneau: "2026-01-06T12:00:00" }))
      expect(error).toMatchObject({ tag: "Forbidden", status: 403 })
      expect(error.message).not.toBe("")
    })

    it("an activity for an unknown session: the seed's 500 'Error: ' text", async () => {
      const error = await failure(club.coach.activities.create({ name: "Orphan", sessionId: 999_999 }))
      expect(error).toMatchObject({ tag: "ActivityFailed", status: 500 })
      expect(error.message).toMatch(/999999/)
    })

    it("a blank task title: invalid_argument naming the field", async () => {
      const error = await failure(club.athlete.todo.createTask({ title: "   ", description: "nothing" }))
      expect(error).toMatchObject({ tag: "InvalidArgument", code: "invalid_argument" })
      expect(error.message).toMatch(/title/)
    })

    it("a wrong password: 401", async () => {
      const error = await failure(ClubClient.login({ baseUrl: server.baseUrl, name: "claire", password: "not-her-password" }))
      expect(error).toMatchObject({ tag: "Unauthorized", status: 401 })
    })

    it("a forged token: 401 on REST, unauthenticated on Connect", async () => {
      const forged = ClubClient.fromToken({ baseUrl: server.baseUrl, token: "forged.token.value" })
      expect(await failure(forged.me())).toMatchObject({ tag: "Unauthorized", status: 401 })
      expect(await failure(forged.todo.listTasks())).toMatchObject({ tag: "Unauthenticated", code: "unauthenticated" })
    })

    it("arguments the contract refuses never leave the client", async () => {
      expect(await failure(club.coach.sessions.create({ creneau: "next Tuesday" }))).toMatchObject({ tag: "InvalidInput" })
    })
  })
})
