import { afterAll, expect, it } from "vitest"
import { expectProblem, expectStatus } from "@club/test-support/expectations"
import { createAthlete, createSession, createUser, tokenOf, unique } from "@club/test-support/rest"
import { openSql, type Sql } from "../reliability/support/Sql.ts"
import { onEveryDatabase } from "./support/club.ts"

/**
 * Issue 41's invitations over the wire: a session open to its group, a late joiner, a leaver, a
 * coach of a group above, the two reads and the feeds. Until the group endpoints exist (a helper
 * of its own builds them), groups, memberships and guardianships are written with SQL on a second
 * connection to the server's database; the embedded database belongs to the server's process and
 * takes no second connection, so there these tests wait for the endpoints (the repository
 * contract runs the same rules on PGlite).
 */
await onEveryDatabase("Sessions open to a group (issue 41)", (club, database) => {
  const onServer = database.kind === "server"
  let sql: Sql | undefined
  const db = async () => sql ??= await openSql(club().databaseUrl!)
  afterAll(async () => {
    await sql?.close()
  })

  /** A group under the club's root (made when missing) with these coaches; answers its id. */
  const group = async (name: string, coachIds: ReadonlyArray<number> = [], parentId?: number) => {
    const s = await db()
    const [root] = await s.query<{ id: string }>(`WITH found AS (SELECT id FROM groups WHERE parent_id IS NULL),
      made AS (INSERT INTO groups (name, parent_id) SELECT 'Club', NULL WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id)
      SELECT id FROM found UNION ALL SELECT id FROM made`)
    const [made] = await s.query<{ id: string }>(
      `INSERT INTO groups (name, parent_id) VALUES ('${name}', ${parentId ?? root!.id}) RETURNING id`
    )
    for (const coachId of coachIds) {
      await s.query(`INSERT INTO group_coaches (group_id, coach_id) VALUES (${made!.id}, ${coachId})`)
    }
    return Number(made!.id)
  }
  const member = async (groupId: number, athleteId: number, from: string, until: string | null = null) => {
    const [row] = await (await db()).query<{ id: string }>(
      `INSERT INTO memberships (group_id, athlete_id, from_date, until_date)
       VALUES (${groupId}, ${athleteId}, '${from}', ${until === null ? "NULL" : `'${until}'`}) RETURNING id`
    )
    return Number(row!.id)
  }
  const endMembership = async (id: number, until: string) =>
    (await db()).query(`UPDATE memberships SET until_date = '${until}' WHERE id = ${id}`)

  /** Four weekly days, 18:00, from three weeks ahead (within the series horizon, replies open). */
  const start = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10)
  const week = (n: number) => new Date(Date.parse(`${start}T00:00:00Z`) + n * 7 * 86_400_000).toISOString().slice(0, 10)

  /** A weekly series of the group: four occurrences from `week(0)`; answers its occurrences' sessions. */
  const weekly = async (groupe: string) => {
    const reply = await club().coach.post("/planning/series", {
      name: `${groupe} weekly`,
      groupe,
      coachId: club().coachId,
      duree: 60,
      start: `${week(0)}T18:00:00`,
      rrule: "FREQ=WEEKLY;COUNT=4",
      athleteIds: []
    })
    expectStatus(reply, 201)
    return (reply.body as { occurrences: ReadonlyArray<{ sessionId: number }> }).occurrences.map((o) => o.sessionId)
  }
  const reply = (athleteId: number, sessionId: number, answer: string, scope = "one") =>
    club().coach.put(`/attendance/athletes/${athleteId}/replies/${sessionId}?scope=${scope}`, { answer })
  const states = async (sessionId: number) =>
    ((await club().athlete.get(`/attendance/sessions/${sessionId}/replies`)).body as {
      replies: ReadonlyArray<{ athleteId: number; state: string }>
    }).replies.map((r) => [r.athleteId, r.state])

  it.skipIf(!onServer)(
    "a late joiner is invited to the next occurrences only; a leaver keeps its replies and is not invited after its last day",
    async () => {
      const name = unique("U12")
      const u12 = await group(name)
      const [first, second, third, fourth] = await weekly(name)
      const late = (await createAthlete(club())).id
      const leaver = (await createAthlete(club())).id
      const leaving = await member(u12, leaver, "2020-01-01")
      expectStatus(await reply(leaver, first!, "yes", "following"), 200)
      await member(u12, late, week(1))
      expectProblem(await reply(late, first!, "yes"), 400, /is not an athlete of session/u)
      const written = await reply(late, second!, "yes", "following")
      expectStatus(written, 200)
      expect((written.body as ReadonlyArray<{ sessionId: number }>).map((r) => r.sessionId)).toEqual([
        second,
        third,
        fourth
      ])
      await endMembership(leaving, week(1))
      expect(await states(fourth!)).toEqual([[leaver, "confirmed"], [late, "confirmed"]])
      expectProblem(await reply(leaver, third!, "no"), 400)
      const invited = (await club().athlete.get(`/attendance/sessions/${third!}/invited`)).body as {
        items: ReadonlyArray<{ athleteId: number; how: string; groupName: string | null }>
      }
      expect(invited.items).toEqual([{ athleteId: late, how: "member", groupId: u12, groupName: name }])
      const sessions = (await club().athlete.get(`/attendance/athletes/${late}/sessions?from=${week(0)}&to=${week(3)}`))
        .body as { items: ReadonlyArray<{ sessionId: number; how: string }> }
      expect(sessions.items.map((s) => [s.sessionId, s.how])).toEqual([
        [second, "member"],
        [third, "member"],
        [fourth, "member"]
      ])
    }
  )

  it.skipIf(!onServer)("a coach of the group above acts on the group's sessions; another coach gets 403", async () => {
    const coachRecord = async () =>
      ((await club().admin.post("/coaches/create", { name: unique("Coach") })).body as {
        id: number
      }).id
    const sectionCoach = await coachRecord()
    const otherCoach = await coachRecord()
    const asCoach = async (coachId: number) => {
      const user = await createUser(club(), { role: "COACH", coachId })
      return club().withToken(await tokenOf(club(), user.name, user.password))
    }
    const section = await group(unique("Youth"), [sectionCoach])
    const name = unique("U10")
    await group(name, [], section)
    await group(unique("Seniors"), [otherCoach])
    const session = await createSession(club(), {
      creneau: "2099-05-04T18:00:00",
      groupe: name,
      coachId: club().coachId
    })
    const bySection = await asCoach(sectionCoach)
    const byOther = await asCoach(otherCoach)
    expectStatus(await bySection.put(`/attendance/sessions/${session.id}/settings`, { capacity: 8 }), 200)
    expectProblem(await byOther.put(`/attendance/sessions/${session.id}/settings`, { capacity: 1 }), 403)
    expectStatus(
      await bySection.send("PATCH", `/planning/sessions/${session.id}`, { json: { name: "U10 Tuesday" } }),
      200
    )
    expectProblem(await byOther.send("PATCH", `/planning/sessions/${session.id}`, { json: { name: "Taken" } }), 403)
    const settings = (await club().athlete.get(`/attendance/sessions/${session.id}/replies`)).body as {
      capacity: number
    }
    expect(settings.capacity).toBe(8)
  })

  it.skipIf(!onServer)(
    "a guardian's feed holds its two children's sessions, by membership too; an athlete's feed its groups'",
    async () => {
      const name = unique("U8")
      const u8 = await group(name)
      const child1 = (await createAthlete(club(), { name: "Child one" })).id
      const child2 = (await createAthlete(club(), { name: "Child two" })).id
      await member(u8, child1, "2099-06-01")
      const groupSession = await createSession(club(), { creneau: "2099-06-08T17:00:00", duree: 60, groupe: name })
      const ownSession = await createSession(club(), {
        creneau: "2099-06-09T17:00:00",
        duree: 60,
        athleteIds: [child2]
      })
      const parent = await createUser(club(), { role: "ATHLETE" })
      await (await db()).query(
        `INSERT INTO guardianships (user_id, athlete_id) VALUES (${parent.id}, ${child1}), (${parent.id}, ${child2})`
      )
      const caller = club().withToken(await tokenOf(club(), parent.name, parent.password))
      const issued = (await caller.post("/planning/feed-token")).body as { token: string }
      const guardianFeed = await club().anonymous.get(`/planning/feeds/${issued.token}/guardian.ics`)
      expectStatus(guardianFeed, 200)
      expect(guardianFeed.text).toContain(`UID:session-${groupSession.id}@club-training-service`)
      expect(guardianFeed.text).toContain(`UID:session-${ownSession.id}@club-training-service`)
      const athleteFeed = await club().anonymous.get(`/planning/feeds/${issued.token}/athlete/${child1}.ics`)
      expect(athleteFeed.text).toContain(`UID:session-${groupSession.id}@club-training-service`)
      expect(athleteFeed.text).not.toContain(`UID:session-${ownSession.id}@club-training-service`)
    }
  )

  it("the guardian feed answers 404 for an unknown token", async () => {
    expectProblem(
      await club().anonymous.get(`/planning/feeds/${"x".repeat(43)}/guardian.ics`),
      404
    )
  })
})
