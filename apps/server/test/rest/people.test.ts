import { PgClient } from "@effect/sql-pg"
import { keptAfterErasure, leftoversOf } from "@club/postgres-adapter/testing"
import {
  createAthlete,
  createSession,
  createUser,
  linkGuardian,
  login,
  missingId,
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
})
