import {
  athleteId,
  calendarDate,
  ClubClient,
  localDateTime,
  type AthleteId,
  type CoachId,
  type SessionDto,
  sessionId
} from "@club/client-sdk"
import { assert, failure, step } from "./check.ts"

/** A week at the club through the Promise face, then every operation of the contract once. */
export const promiseFace = async (baseUrl: string, adminPassword: string) => {
  const admin = await ClubClient.login({ baseUrl, name: "admin", password: adminPassword, timeoutMs: 10_000 })
  const ids = {} as { coach: CoachId; athlete: AthleteId; other: AthleteId }
  const week = {} as Record<"monday" | "wednesday" | "friday" | "saturday" | "nextMonth", SessionDto>
  let coach: ClubClient
  let athlete: ClubClient

  await step("promise: the admin is logged in, healthy server", async () => {
    assert.equal(admin.user?.role, "ADMIN")
    const { rules, groups, guardedAthleteIds, ...me } = await admin.auth.me()
    assert.deepEqual(me, admin.user)
    assert.equal(rules["webhook.manage"], "any")
    // An admin coaches no group, has no athlete, and answers for no athlete.
    assert.deepEqual(groups, [])
    assert.deepEqual(guardedAthleteIds, [])
    assert.deepEqual(await admin.health.live(), { status: "ok" })
    assert.deepEqual(await admin.health.ready(), { status: "ready" })
  })

  await step("promise: a coach, two athletes, and their users", async () => {
    const claire = await admin.coaches.create({ payload: { name: "Claire Martin" } })
    const arno = await admin.athletes.create({
      payload: { name: "Arno Petit", categorie: "Senior", niveau: "Regional" }
    })
    const bea = await admin.athletes.create({ payload: { name: "Bea Roux", categorie: "Junior", niveau: "National" } })
    Object.assign(ids, { coach: claire.id, athlete: arno.id, other: bea.id })
    assert.deepEqual(arno, {
      id: arno.id,
      name: "Arno Petit",
      categorie: "Senior",
      niveau: "Regional",
      groupes: [],
      sessionIds: [],
      userId: null
    })
    await admin.users.create({
      payload: {
        name: "claire",
        email: "claire@club.test",
        role: "COACH",
        password: "coach-password-1",
        coachId: claire.id
      }
    })
    await admin.users.create({
      payload: { name: "arno", role: "ATHLETE", password: "athlete-password-1", athleteId: arno.id }
    })
    assert.deepEqual(await admin.coaches.get({ params: { id: claire.id } }), claire)
    coach = await ClubClient.login({ baseUrl, name: "claire", password: "coach-password-1" })
    athlete = await ClubClient.login({ baseUrl, name: "arno", password: "athlete-password-1" })
  })

  await step("promise: the coach plans a week, with activities", async () => {
    const plan = (name: string, at: string, athleteIds: ReadonlyArray<AthleteId>) =>
      coach.sessions.create({
        payload: { name, creneau: localDateTime(at), duree: 60, groupe: "Seniors", coachId: ids.coach, athleteIds }
      })
    week.monday = await plan("Endurance", "2026-01-05T18:00:00", [ids.athlete])
    week.wednesday = await plan("Intervals", "2026-01-07T18:30:00", [ids.athlete, ids.other])
    week.friday = await plan("Juniors only", "2026-01-09T17:00:00", [ids.other])
    week.saturday = await plan("Long run", "2026-01-10T09:00:00", [ids.athlete])
    week.nextMonth = await plan("Tempo", "2026-02-02T18:00:00", [ids.athlete])
    assert.equal(week.monday.creneau, "2026-01-05T18:00:00")
    // A Date picked in a form is the same wall-clock time.
    assert.equal(localDateTime(new Date(2026, 0, 5, 18, 0, 0)), week.monday.creneau)

    // The seed answers the text; the SDK reads the new activity's id from the answer's Location.
    const created = await coach.activities.create({
      payload: { name: "Warm-up", theme: "endurance", duree: 15, dataActivite: ["jog"], sessionId: week.monday.id }
    })
    assert.equal(created.message, "Activity created")
    const warmUp = created.id
    assert.deepEqual((await coach.sessions.get({ params: { id: week.monday.id } })).activiteIds, [warmUp])
    assert.deepEqual(await coach.activities.get({ params: { id: warmUp } }), {
      id: null,
      name: "Warm-up",
      theme: "endurance",
      duree: 15,
      dataActivite: ["jog"],
      sessionId: week.monday.id
    })
    assert.deepEqual(await coach.schedule.activitiesOfSession({ params: { id: week.monday.id } }), [{
      id: warmUp,
      name: "Warm-up"
    }])
    assert.deepEqual((await coach.activities.byTheme({ params: { theme: "endurance" } })).map((one) => one.name), [
      "Warm-up"
    ])
  })

  await step("promise: the athlete sees their own sessions of the week", async () => {
    const between = await athlete.schedule.sessionsBetween({
      params: { id: ids.athlete, startDate: calendarDate("2026-01-04"), endDate: calendarDate("2026-01-11") }
    })
    assert.deepEqual(between.map((one) => one.id), [week.monday.id, week.wednesday.id, week.saturday.id])
    const after = await athlete.schedule.sessionsAfter({
      params: { id: ids.athlete, date: calendarDate(new Date(2026, 0, 8)) }
    })
    assert.deepEqual(after.map((one) => one.name), ["Long run", "Tempo"])
    assert.equal((await athlete.schedule.sessionsOfAthlete({ params: { id: ids.athlete } })).length, 4)
    assert.ok((await athlete.schedule.allSessions()).length >= 5)
  })

  await step("promise: TodoService over Connect JSON, Connect binary and gRPC-Web", async () => {
    const task = await athlete.todo.createTask({ title: "Pack spikes", description: "For Saturday" })
    assert.match(task.id, /^[0-9a-f-]{36}$/)
    for (const todoProtocol of ["connect-binary", "grpc-web"] as const) {
      const other = ClubClient.fromToken({ baseUrl, token: athlete.token, todoProtocol })
      assert.ok((await other.todo.listTasks()).some((one) => one.id === task.id), todoProtocol)
    }
    assert.deepEqual(await athlete.todo.deleteTask(task.id), { ...task, success: true })
    assert.equal((await athlete.todo.deleteTask(task.id)).success, false)
  })

  await step("promise: every other operation, once", async () => {
    const deputy = await admin.admins.create({ payload: { name: "Deputy" } })
    assert.deepEqual(await admin.admins.update({ params: { id: deputy.id }, payload: { name: "Second" } }), {
      id: deputy.id,
      name: "Second"
    })
    assert.ok((await admin.admins.all()).some((one) => one.id === deputy.id))
    await admin.admins.delete({ params: { id: deputy.id } })
    await failure(admin.admins.get({ params: { id: deputy.id } }), {
      tag: "NotFound",
      status: 404,
      message: "Admin not found"
    })

    const temp = await admin.coaches.create({ payload: { name: "Temp" } })
    assert.deepEqual(await admin.coaches.update({ params: { id: temp.id }, payload: { name: "Renamed" } }), {
      id: temp.id,
      name: "Renamed"
    })
    assert.ok((await admin.coaches.all()).some((one) => one.id === temp.id))
    await admin.coaches.delete({ params: { id: temp.id } })

    const user = await admin.users.create({
      payload: { name: "temp-user", role: "ATHLETE", password: "temp-password-1" }
    })
    assert.deepEqual(await admin.users.get({ params: { id: user.id } }), user)
    assert.equal(
      (await admin.users.update({ params: { id: user.id }, payload: { email: "temp@club.test" } })).email,
      "temp@club.test"
    )
    assert.ok((await admin.users.all()).some((one) => one.id === user.id))
    await failure(
      admin.users.create({ payload: { name: "temp-user", role: "ATHLETE", password: "temp-password-1" } }),
      { tag: "Conflict", status: 409 }
    )
    await admin.users.delete({ params: { id: user.id } })

    const drill = await coach.sessions.create({
      payload: { name: "Drills", creneau: localDateTime("2026-03-02T18:00:00"), coachId: ids.coach }
    })
    await coach.sessions.update({ params: { id: drill.id }, payload: { duree: 50, athleteIds: [ids.other] } })
    assert.deepEqual((await coach.sessions.get({ params: { id: drill.id } })).athleteIds, [ids.other])
    assert.ok((await coach.sessions.all()).some((one) => one.id === drill.id))
    assert.equal(
      (await admin.athletes.update({
        params: { id: ids.other },
        payload: { name: "Bea Roux", sessionIds: [drill.id] }
      })).name,
      "Bea Roux"
    )
    assert.ok((await admin.athletes.all()).some((one) => one.id === ids.other))
    assert.equal((await admin.athletes.get({ params: { id: ids.other } })).niveau, null)
    const { id: skips } = await coach.activities.create({ payload: { name: "Skips", sessionId: drill.id } })
    assert.equal(
      await coach.activities.update({ params: { id: skips }, payload: { name: "High knees", sessionId: drill.id } }),
      "Activity modified"
    )
    assert.ok((await coach.activities.all()).some((one) => one.name === "High knees"))
    assert.equal(await coach.activities.delete({ params: { id: skips } }), "Activity deleted")
    assert.equal(await coach.sessions.delete({ params: { id: drill.id } }), "Session deleted successfully")
    const gone = await admin.athletes.create({ payload: { name: "Leaving" } })
    await admin.athletes.delete({ params: { id: gone.id } })
  })

  await step("promise: failures arrive as ClubApiError, typed by tag", async () => {
    await failure(coach.sessions.get({ params: { id: sessionId(999_999) } }), {
      tag: "SessionNotFoundText",
      status: 404
    })
    await failure(admin.athletes.get({ params: { id: athleteId(999_999) } }), { tag: "NotFoundEmpty", status: 404 })
    const refused = await failure(athlete.sessions.create({ payload: { name: "Self-coached" } }), {
      tag: "Forbidden",
      status: 403
    })
    assert.equal(refused.problem?.title, "Forbidden")
    await failure(coach.activities.create({ payload: { name: "Orphan", sessionId: sessionId(999_999) } }), {
      tag: "ActivityFailed",
      status: 500
    })
    await failure(athlete.todo.createTask({ title: "   " }), { tag: "InvalidArgument", code: "invalid_argument" })
    await failure(ClubClient.login({ baseUrl, name: "claire", password: "not-her-password" }), {
      tag: "Unauthorized",
      status: 401
    })
    const forged = ClubClient.fromToken({ baseUrl, token: "forged.token.value" })
    await failure(forged.auth.me(), { tag: "Unauthorized", status: 401 })
    await failure(forged.todo.listTasks(), { tag: "Unauthenticated", code: "unauthenticated" })
    await failure(coach.sessions.create({ payload: { creneau: "next Tuesday" as never } }), { tag: "InvalidInput" })
  })
}
