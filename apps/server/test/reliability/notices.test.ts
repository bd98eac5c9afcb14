import { eventually, type ServerProcess, type SmtpTestServer, startSmtpServer } from "@club/test-support"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import type { Sql } from "./support/Sql.ts"

/**
 * Issue 42's exactly once: two instances on one PostgreSQL send the same notices table; one is
 * killed (SIGKILL) while the SMTP server holds its send unanswered. Every notice arrives once, by
 * the SMTP server's count. The one case where a copy may arrive twice (an instance killed after the
 * relay's 250 and before its mark, docs/notices.md) has the same Message-ID; here the relay never
 * answered the killed sends, so no notice may arrive twice. Reminders: both instances tick, a
 * non-replier gets one reminder, a replier none.
 */

const host = "club.example"
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!postgresAnswers)("Notices across two instances and a SIGKILL mid-send [PostgreSQL server]", () => {
  let deployment: Deployment
  let smtp: SmtpTestServer
  let sql: Sql
  let a: ServerProcess
  let b: ServerProcess
  /** The instances alive after the kill. */
  const alive: Array<ServerProcess> = []
  const env = (port: number) => ({
    PORT: String(port),
    SMTP_URL: smtp.url,
    SMTP_FROM: "club@club.test",
    SMTP_TIMEOUT_SECONDS: "1",
    PUBLIC_URL: `https://${host}`,
    NOTICE_POLL_MS: "50",
    NOTICE_CONCURRENCY: "2",
    NOTICE_RETRY_BASE_MS: "200",
    NOTICE_RETRY_MAX_MS: "400",
    NOTICE_MAX_ATTEMPTS: "100",
    NOTICE_REMINDER_LEAD_MINUTES: "120",
    NOTICE_REMINDER_WINDOW_MINUTES: "180",
    NOTICE_REMINDER_POLL_MS: "100"
  })

  /** `count` athletes, each with a user whose email is `<prefix><i>@club.test`; their user ids. */
  const people = async (prefix: string, count: number) => {
    const rows = await sql.query<{ athlete: string; user: string }>(`WITH a AS (
        INSERT INTO athletes (name) SELECT '${prefix}' || i FROM generate_series(1, ${count}) i RETURNING id, name),
      u AS (INSERT INTO users (name, email, role, password_hash, athlete_id)
        SELECT a.name, a.name || '@club.test', 'ATHLETE', 'x', a.id FROM a RETURNING id, athlete_id)
      SELECT athlete_id AS athlete, id AS user FROM u ORDER BY id`)
    return rows.map((row) => ({ athleteId: Number(row.athlete), userId: Number(row.user) }))
  }

  /** Pending notices for `who`, about a session of 2099, as the outbox writes them; their ids. */
  const queue = async (tag: string, who: ReadonlyArray<{ athleteId: number; userId: number }>) => {
    const [session] = await sql.query<{ id: string }>(
      `INSERT INTO sessions (name, creneau, duree) VALUES ('${tag}', '2099-06-01T18:00:00', 60) RETURNING id`
    )
    const values = who.map((p) => `('${tag}:${p.userId}', ${p.userId}, ${p.athleteId}, ${session!.id}, 'promoted')`)
    const rows = await sql.query<{ id: string }>(
      `INSERT INTO notices (dedupe_key, user_id, athlete_id, session_id, kind)
      VALUES ${values.join(", ")} RETURNING id`
    )
    return rows.map((row) => `<notice-${row.id}@${host}>`)
  }

  const copies = (messageId: string) => smtp.received.filter((mail) => mail.messageId === messageId).length

  beforeAll(async () => {
    smtp = await startSmtpServer()
    deployment = await deploy("server")
    sql = deployment.sql!
    ;[a, b] = await Promise.all([deployment.start(env(42210)), deployment.start(env(42211))])
  }, 180_000)
  afterAll(async () => {
    await deployment?.release()
    await smtp?.close()
  })

  it("sends each notice exactly once though the instance holding a send is killed", async () => {
    smtp.behave({ _tag: "accept" })
    const calm = await queue("calm", await people("calm", 20))
    expect(await eventually(async () => calm.every((id) => copies(id) >= 1), 30_000)).toBe(true)

    smtp.behave({ _tag: "hang" })
    const began = smtp.dataStarted()
    const stormy = await queue("stormy", await people("stormy", 10))
    expect(await eventually(async () => smtp.dataStarted() > began, 20_000)).toBe(true)
    const leases = await sql.query<{ id: string; lease_owner: string }>(`SELECT id, lease_owner FROM notices
      WHERE status = 'pending' AND leased_until > now() ORDER BY id`)
    expect(leases.length).toBeGreaterThan(0)
    // The owner names the instance: `<host>/<pid>/<uuid>`.
    const victimPid = Number(leases[0]!.lease_owner.split("/")[1])
    const victim = [a, b].find((server) => server.child.pid === victimPid)!
    const survivor = victim === a ? b : a
    expect(victim).toBeDefined()
    const heldByVictim = leases.filter((l) => Number(l.lease_owner.split("/")[1]) === victimPid)
      .map((l) => `<notice-${l.id}@${host}>`)
    victim.child.kill("SIGKILL")
    expect((await victim.exited).signal).toBe("SIGKILL")
    smtp.behave({ _tag: "accept" })

    // The survivor sends the rest, and the victim's once their leases end.
    const all = [...calm, ...stormy]
    expect(await eventually(async () => all.every((id) => copies(id) >= 1), 60_000)).toBe(true)
    await pause(2000)
    const twice = all.filter((id) => copies(id) > 1)
    // The honest guarantee: a second copy only of a notice the killed instance held, same Message-ID ...
    expect(twice.every((id) => heldByVictim.includes(id))).toBe(true)
    // ... and none here, since the relay never answered the killed sends.
    expect(twice).toEqual([])
    expect(smtp.received.filter((mail) => all.includes(mail.messageId ?? "")).length).toBe(all.length)
    const [sent] = await sql.query<{ n: string }>(`SELECT count(*) AS n FROM notices WHERE status = 'sent'`)
    expect(Number(sent!.n)).toBe(all.length)
    expect(survivor.child.exitCode).toBeNull()
    alive.push(survivor)
  }, 120_000)

  it(
    "reminders: with two instances ticking, a non-replier gets one, a replier none, an older session none",
    async () => {
      smtp.behave({ _tag: "accept" })
      // The killed instance is replaced, so two instances tick again.
      const replacement = await deployment.start(env(42212))
      alive.push(replacement)
      const [silent, replier, old] = await people("remind", 3)
      // Its start an hour ahead at the club: the reminder's moment (two hours before) passed an hour ago.
      const [session] = await sql.query<{ id: string }>(`INSERT INTO sessions (name, creneau, duree)
      VALUES ('Relay', (now() AT TIME ZONE 'Europe/Paris') + interval '1 hour', 60) RETURNING id`)
      // One that started two hours ago: its cut-off passed, nobody is reminded of it (the window's own
      // case is the repository's test, packages/postgres-adapter/test/notices.test.ts).
      const [late] = await sql.query<{ id: string }>(`INSERT INTO sessions (name, creneau, duree)
      VALUES ('Late', (now() AT TIME ZONE 'Europe/Paris') - interval '2 hours', 60) RETURNING id`)
      // The reply first: both instances tick every 100 ms and would remind an invitee not replied yet.
      await sql.query(`INSERT INTO session_replies (session_id, athlete_id, answer, state, replied_by)
      VALUES (${session!.id}, ${replier!.athleteId}, 'no', 'declined', 1)`)
      await sql.query(`INSERT INTO session_athletes (session_id, athlete_id) VALUES
      (${session!.id}, ${silent!.athleteId}), (${session!.id}, ${replier!.athleteId}), (${late!.id}, ${
        old!.athleteId
      })`)
      const inbox = (n: number) => smtp.received.filter((mail) => mail.envelopeTo.includes(`remind${n}@club.test`))
      expect(await eventually(async () => inbox(1).length >= 1, 30_000)).toBe(true)
      await pause(2000)
      expect([inbox(1).length, inbox(2).length, inbox(3).length]).toEqual([1, 0, 0])
      expect(inbox(1)[0]!.subject).toMatch(/^Réponse attendue : Relay/u)
      expect(replacement.child.exitCode).toBeNull()
    },
    120_000
  )

  it(
    "a SIGTERM during a send lets it end and settles it; the notice then arrives once, from the other instance",
    async () => {
      smtp.behave({ _tag: "hang" })
      const began = smtp.dataStarted()
      const [id] = await queue("term", await people("term", 1))
      expect(await eventually(async () => smtp.dataStarted() > began, 20_000)).toBe(true)
      const [lease] = await sql.query<{ lease_owner: string }>(`SELECT lease_owner FROM notices
      WHERE status = 'pending' AND leased_until > now()`)
      const holder = alive.find((server) => server.child.pid === Number(lease!.lease_owner.split("/")[1]))!
      expect(holder).toBeDefined()
      const stopping = Date.now()
      const exit = await holder.stop()
      // The send is cut by its own bound (three times SMTP_TIMEOUT_SECONDS), not by the lease.
      expect(exit.code).toBe(0)
      expect(Date.now() - stopping).toBeLessThan(7000)
      const [row] = await sql.query<{ status: string; lease_owner: string | null }>(`SELECT status, lease_owner
      FROM notices WHERE id = ${Number(id!.slice("<notice-".length, id!.indexOf("@")))}`)
      // Released by the stopped holder; the other instance may already have claimed it again.
      expect(row?.status).toBe("pending")
      const leaseOwner = row?.lease_owner ?? null
      expect(leaseOwner === null || !leaseOwner.includes(`/${holder.child.pid}/`)).toBe(true)
      smtp.behave({ _tag: "accept" })
      expect(await eventually(async () => copies(id!) >= 1, 30_000)).toBe(true)
      await pause(1000)
      expect(copies(id!)).toBe(1)
    },
    120_000
  )
})
