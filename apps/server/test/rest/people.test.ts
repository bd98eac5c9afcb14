import { PgClient } from "@effect/sql-pg"
import { keptAfterErasure, leftoversOf } from "@club/postgres-adapter/testing"
import {
  createAthlete,
  createGroup,
  createSession,
  createUser,
  linkGuardian,
  login,
  missingId,
  startMembership,
  tokenOf,
  unique
} from "@club/test-support/rest"
import { expectProblem } from "@club/test-support/expectations"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { onEveryDatabase } from "./support/club.ts"

/**
 * Issue 43 over the wire: a person with a history written through the API, exported, erased, and
 * (on the PostgreSQL server, whose database the test can open) every table searched for them.
 */

await onEveryDatabase("Issue 43: a person's export and erasure", (club) => {
  describe("GET /people/{id}/export and POST /people/{id}/erase", () => {
    it("exports a person's whole history to them, erases it for an admin, and leaves no text of them behind", async () => {
      const t = unique("p").replaceAll(/[^a-z0-9]/gu, "")
      const texts = {
        athleteName: `Zéphyrine Quillard ${t}`,
        userName: `zquillard-${t}`,
        email: `zephyrine.${t}@family.test`,
        reason: `hospital appointment ${t}`
      }
      const athlete = await createAthlete(club(), { name: texts.athleteName })
      const ward = await createAthlete(club(), { name: `ward ${t}` })
      const user = await createUser(club(), {
        name: texts.userName,
        email: texts.email,
        role: "ATHLETE",
        athleteId: athlete.id
      })
      await linkGuardian(club(), user.id, ward.id)
      const person = club().withToken(await tokenOf(club(), user.name, user.password))
      const session = await createSession(club(), {
        creneau: "2099-06-01T18:00:00",
        coachId: club().coachId,
        athleteIds: [athlete.id]
      })
      const replied = await person.put(
        `/attendance/athletes/${athlete.id}/replies/${session.id}`,
        { answer: "no", reason: texts.reason },
        { headers: { "idempotency-key": `reply-${t}` } }
      )
      expect(replied.status, replied.text).toBe(200)
      const prefs = await person.put("/notices/preferences", { language: "fr", emailEnabled: true, mutedKinds: [] }, {
        headers: { "idempotency-key": `prefs-${t}` }
      })
      expect(prefs.status, prefs.text).toBe(200)
      expect((await login(club(), user.name, "not the password")).status).toBe(401)

      // The person reads their own; another athlete may not; an admin may.
      const own = await person.get(`/people/${user.id}/export`)
      expect(own.status, own.text).toBe(200)
      for (const piece of Object.values(texts)) expect(own.text).toContain(piece)
      expect(own.text).not.toContain(user.password)
      const sections = new Set((own.body as ReadonlyArray<{ section: string }>).map((page) => page.section))
      for (
        const section of [
          "user",
          "athlete",
          "guardianOf",
          "sessionsInvitedTo",
          "replies",
          "noticePreferences",
          "events"
        ]
      ) {
        expect(sections).toContain(section)
      }
      expectProblem(await club().athlete.get(`/people/${user.id}/export`), 403)
      expect((await club().admin.get(`/people/${user.id}/export`)).status).toBe(200)
      expectProblem(await club().admin.get(`/people/${missingId}/export`), 404)

      // Only an admin erases; twice answers the same.
      expectProblem(
        await person.post(`/people/${user.id}/erase`, undefined, { headers: { "idempotency-key": `self-${t}` } }),
        403
      )
      const erased = await club().admin.post(`/people/${user.id}/erase`, undefined, {
        headers: { "idempotency-key": `erase-${t}` }
      })
      expect(erased.status, erased.text).toBe(200)
      expect(erased.body).toMatchObject({ userId: user.id, athleteId: athlete.id, coachId: null, adminId: null })
      const again = await club().admin.post(`/people/${user.id}/erase`, undefined, {
        headers: { "idempotency-key": `again-${t}` }
      })
      expect(again.body).toEqual(erased.body)
      expectProblem(
        await club().admin.post(`/people/${missingId}/erase`, undefined, {
          headers: { "idempotency-key": `missing-${t}` }
        }),
        404
      )

      expect((await person.get("/notices/preferences")).status).toBe(401)
      const after = await club().admin.get(`/people/${user.id}/export`)
      for (const piece of Object.values(texts)) expect(after.text).not.toContain(piece)
      const roster = await club().admin.get(`/attendance/sessions/${session.id}/replies`)
      expect(roster.text).not.toContain(texts.reason)
      // The session's count stays right: the reply is there, declined, without its reason.
      expect(roster.body).toMatchObject({
        replies: [{ athleteId: athlete.id, answer: "no", reason: null, state: "declined" }]
      })

      const databaseUrl = club().databaseUrl
      if (databaseUrl !== undefined) {
        const left = await Effect.runPromise(
          Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) => leftoversOf(sql, Object.values(texts), { user_id: user.id, athlete_id: athlete.id })
          ).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
        )
        expect(left.filter((l) => !l.found.includes("= ") && !l.found.startsWith("\""))).toEqual([])
        expect(left.filter((l) => !keptAfterErasure.has(l.table))).toEqual([])
      }
      // Ended: the password no longer logs in (tried after the search: a failed login with the old
      // name is throttled as any name is, and purged with the login attempts).
      expect((await login(club(), user.name, user.password)).status).toBe(401)
    })
  })

  describe("GET /people/athletes/{id}/export and POST /people/athletes/{id}/erase", () => {
    it("a guardian exports their child without a login; an admin erases the child alone, and no text of it is left", async () => {
      const t = unique("c").replaceAll(/[^a-z0-9]/gu, "")
      const texts = {
        childName: `Anatole Brisebarre ${t}`,
        reason: `dentist visit ${t}`,
        groupName: `minimes ${t}`
      }
      const child = await createAthlete(club(), { name: texts.childName, categorie: "U11" })
      const parent = await createUser(club(), { name: `parent-${t}`, role: "ATHLETE" })
      const otherParent = await createUser(club(), { name: `other-parent-${t}`, role: "COACH" })
      await linkGuardian(club(), parent.id, child.id)
      const other = await createAthlete(club(), { name: `other child ${t}` })
      await linkGuardian(club(), otherParent.id, other.id)
      const guardian = club().withToken(await tokenOf(club(), parent.name, parent.password))
      const notGuardian = club().withToken(await tokenOf(club(), otherParent.name, otherParent.password))

      const group = await createGroup(club(), { name: texts.groupName })
      const membership = await startMembership(club(), group.id, child.id, "2020-01-01")
      const coming = await createSession(club(), {
        creneau: "2099-06-01T18:00:00",
        coachId: club().coachId,
        athleteIds: [child.id]
      })
      const past = await createSession(club(), {
        creneau: "2020-06-01T18:00:00",
        coachId: club().coachId,
        athleteIds: [child.id]
      })
      const replied = await guardian.put(
        `/attendance/athletes/${child.id}/replies/${coming.id}`,
        { answer: "no", reason: texts.reason },
        { headers: { "idempotency-key": `reply-${t}` } }
      )
      expect(replied.status, replied.text).toBe(200)
      const marked = await club().coach.put(`/attendance/sessions/${past.id}/presence`, {
        marks: [{ athleteId: child.id, status: "excused" }]
      }, { headers: { "idempotency-key": `marks-${t}` } })
      expect(marked.status, marked.text).toBe(200)

      // The guardian reads their child's: its reply with its reason, its mark, its membership.
      const own = await guardian.get(`/people/athletes/${child.id}/export`)
      expect(own.status, own.text).toBe(200)
      for (const piece of Object.values(texts)) expect(own.text).toContain(piece)
      const pages = own.body as ReadonlyArray<{ section: string; rows: ReadonlyArray<Record<string, unknown>> }>
      const rowsOf = (section: string) => pages.filter((page) => page.section === section).flatMap((page) => page.rows)
      expect(rowsOf("athlete")).toMatchObject([{ id: child.id, name: texts.childName }])
      expect(rowsOf("replies")).toMatchObject([{ session_id: coming.id, answer: "no", reason: texts.reason }])
      expect(rowsOf("marks")).toMatchObject([{ session_id: past.id, status: "excused" }])
      expect(rowsOf("memberships")).toMatchObject([{ id: membership.id, groupName: texts.groupName }])
      expect(rowsOf("guardians")).toEqual([{ userId: parent.id }])
      // No user: the child's person has no user, and its guardian's is not in it.
      expect(rowsOf("user")).toEqual([])
      expect(own.text).not.toContain(parent.name)
      expect(own.text).not.toContain(parent.password)

      // Another guardian, another athlete, a coach: refused; an admin reads it; an unknown athlete is 404.
      expectProblem(await notGuardian.get(`/people/athletes/${child.id}/export`), 403)
      expectProblem(await club().athlete.get(`/people/athletes/${child.id}/export`), 403)
      expectProblem(await club().coach.get(`/people/athletes/${child.id}/export`), 403)
      expect((await notGuardian.get(`/people/athletes/${other.id}/export`)).status).toBe(200)
      expect((await club().admin.get(`/people/athletes/${child.id}/export`)).status).toBe(200)
      expectProblem(await club().admin.get(`/people/athletes/${missingId}/export`), 404)

      // Only an admin erases; the child alone (no user), twice the same answer.
      expectProblem(
        await guardian.post(`/people/athletes/${child.id}/erase`, undefined, {
          headers: { "idempotency-key": `self-${t}` }
        }),
        403
      )
      const erased = await club().admin.post(`/people/athletes/${child.id}/erase`, undefined, {
        headers: { "idempotency-key": `erase-${t}` }
      })
      expect(erased.status, erased.text).toBe(200)
      expect(erased.body).toMatchObject({ userId: null, athleteId: child.id, coachId: null, adminId: null })
      const again = await club().admin.post(`/people/athletes/${child.id}/erase`, undefined, {
        headers: { "idempotency-key": `again-${t}` }
      })
      expect(again.status, again.text).toBe(200)
      expect(again.body).toEqual(erased.body)
      expectProblem(
        await club().admin.post(`/people/athletes/${missingId}/erase`, undefined, {
          headers: { "idempotency-key": `missing-${t}` }
        }),
        404
      )

      // The record stays (its id): its export now names nothing; the guardian's link is gone, and their login stays.
      const after = await club().admin.get(`/people/athletes/${child.id}/export`)
      expect(after.status, after.text).toBe(200)
      expect(after.text).not.toContain(texts.childName)
      expect(after.text).not.toContain(texts.reason)
      expectProblem(await guardian.get(`/people/athletes/${child.id}/export`), 403)
      expect((await guardian.get("/auth/me")).status).toBe(200)
      const roster = await club().admin.get(`/attendance/sessions/${coming.id}/replies`)
      expect(roster.body).toMatchObject({
        replies: [{ athleteId: child.id, answer: "no", reason: null, state: "declined" }]
      })

      const databaseUrl = club().databaseUrl
      if (databaseUrl !== undefined) {
        const left = await Effect.runPromise(
          Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) => leftoversOf(sql, [texts.childName, texts.reason], { athlete_id: child.id })
          ).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(databaseUrl), maxConnections: 1 })))
        )
        expect(left.filter((l) => !l.found.includes("= ") && !l.found.startsWith("\""))).toEqual([])
        expect(left.filter((l) => !keptAfterErasure.has(l.table))).toEqual([])
      }
    })

    it("an athlete a user links is that user's person: the same export, and the same erasure and ledger row", async () => {
      const t = unique("l").replaceAll(/[^a-z0-9]/gu, "")
      const athlete = await createAthlete(club(), { name: `Linked Athlete ${t}` })
      const user = await createUser(club(), { name: `linked-${t}`, role: "ATHLETE", athleteId: athlete.id })
      const person = club().withToken(await tokenOf(club(), user.name, user.password))

      const byAthlete = await person.get(`/people/athletes/${athlete.id}/export`)
      expect(byAthlete.status, byAthlete.text).toBe(200)
      expect(byAthlete.body).toEqual((await person.get(`/people/${user.id}/export`)).body)
      expect(byAthlete.text).toContain(user.name)

      const erased = await club().admin.post(`/people/athletes/${athlete.id}/erase`, undefined, {
        headers: { "idempotency-key": `erase-${t}` }
      })
      expect(erased.status, erased.text).toBe(200)
      expect(erased.body).toMatchObject({ userId: user.id, athleteId: athlete.id })
      const byUser = await club().admin.post(`/people/${user.id}/erase`, undefined, {
        headers: { "idempotency-key": `by-user-${t}` }
      })
      expect(byUser.body).toEqual(erased.body)
      expect((await login(club(), user.name, user.password)).status).toBe(401)
    })
  })
})
