import { temporaryTestDatabase, type TemporaryDatabase } from "@club/postgres-adapter/testing"
import {
  type ServerProcess,
  type SmtpTestServer,
  spawnServer,
  startSmtpServer,
  waitUntilLive
} from "@club/test-support"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { send } from "../rest/support/http.ts"
import { type CommitCuttingProxy, startCommitCuttingProxy } from "../support/CommitCuttingProxy.ts"
import { sleep } from "../support/requests.ts"
import { isLongRun } from "./support/budget.ts"
import { adminName, adminPassword, jwtSecret, postgresAnswers } from "./support/Deployment.ts"
import { login } from "./support/principals.ts"
import { recordResult } from "./support/results.ts"
import { openSql, type Sql } from "./support/Sql.ts"

/** The writes each kind floods with, with and without a key (each a name of its own). */
const perKind = isLongRun ? 150 : 40
const writers = 12
/** How often a cut falls: per COMMIT (before it is forwarded, after its answer came) and per write statement. */
const rates = { "before-commit": 0.1, "after-commit": 0.15, "mid-statement": 0.05 } as const
/** A client retrying with its key gives up after this many answers that were not final (it never should). */
const maxTries = 200

/** `invite`: a session with two athletes, each with a user with an email, one with a guardian too. */
type Kind = "session" | "invite" | "activity" | "athlete" | "coach" | "update" | "task"

interface Write {
  readonly kind: Kind
  readonly name: string
  readonly keyed: boolean
}

interface Outcome {
  readonly write: Write
  /** Every answer the client got, in order (HTTP status, Connect code, or the network error). */
  readonly answers: Array<string>
  /** The final answer's body, when it is a success. */
  body?: unknown
}

const isFinal = (answer: string) => !(answer.startsWith("5") || answer === "409" || answer.startsWith("error"))

describe.skipIf(!postgresAnswers)(
  "Writes under connections cut at COMMIT (a proxy that reads the PostgreSQL protocol)",
  () => {
    let temporary: TemporaryDatabase
    let proxy: CommitCuttingProxy
    let sql: Sql
    let server: ServerProcess
    let baseUrl: string
    let adminToken: string
    let coachToken: string
    let holdingSession: number
    let smtp: SmtpTestServer
    /** The users an invitation to the two invited athletes tells: their own two and the guardian. */
    let invitedAthletes: ReadonlyArray<number>
    let invitationRecipients: ReadonlyArray<number>
    const userIds = { admin: 0, coach: 0 }
    const sessionsToUpdate: Array<number> = []

    beforeAll(async () => {
      temporary = (await temporaryTestDatabase())!
      proxy = await startCommitCuttingProxy(temporary.server)
      sql = await openSql(temporary.urlVia(temporary.server.host, temporary.server.port))
      smtp = await startSmtpServer()
      server = await spawnServer({
        ADMIN_NAME: adminName,
        ADMIN_PASSWORD: adminPassword,
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: "error",
        DATABASE_URL: temporary.urlVia("127.0.0.1", proxy.port),
        // Mail on: the outbox queues a notice per person an event tells (docs/notices.md).
        SMTP_URL: smtp.url,
        SMTP_FROM: "club@club.test",
        NOTICE_POLL_MS: "200"
      })
      await waitUntilLive(server)
      baseUrl = `http://127.0.0.1:${server.port}`
      adminToken = await login(baseUrl, adminName, adminPassword)
      const coach = await send(baseUrl, "POST", "/coaches/create", { token: adminToken, json: { name: "Cut coach" } })
      const coachId = (coach.body as { id: number }).id
      const coachUser = await send(baseUrl, "POST", "/users/create", {
        token: adminToken,
        json: { name: "cutcoach", role: "COACH", password: "cut-coach-password-0", coachId }
      })
      userIds.coach = (coachUser.body as { id: number }).id
      coachToken = await login(baseUrl, "cutcoach", "cut-coach-password-0")
      const me = await send(baseUrl, "GET", "/auth/me", { token: adminToken })
      userIds.admin = (me.body as { id: number }).id
      // Two athletes with users that have an email, and a guardian (an ATHLETE user whose own record
      // is deleted, as docs/membership.md describes a parent) of the second.
      const invited: Array<{ athleteId: number; userId: number }> = []
      for (const n of [1, 2]) {
        const athlete = await send(baseUrl, "POST", "/athletes/create", {
          token: adminToken,
          json: { name: `Invited ${n}`, categorie: "Senior", niveau: "A" }
        })
        const athleteId = (athlete.body as { id: number }).id
        const user = await send(baseUrl, "POST", "/users/create", {
          token: adminToken,
          json: {
            name: `invited${n}`,
            role: "ATHLETE",
            password: "cut-invited-password-0",
            email: `invited${n}@club.test`,
            athleteId
          }
        })
        invited.push({ athleteId, userId: (user.body as { id: number }).id })
      }
      const parent = (await send(baseUrl, "POST", "/users/create", {
        token: adminToken,
        json: { name: "cutguardian", role: "ATHLETE", password: "cut-guardian-password-0", email: "parent@club.test" }
      })).body as { id: number; athleteId: number }
      await send(baseUrl, "DELETE", `/athletes/${parent.athleteId}`, { token: adminToken })
      const linked = await send(baseUrl, "PUT", `/guardians/${parent.id}/athletes/${invited[1]!.athleteId}`, {
        token: adminToken
      })
      expect(linked.status).toBe(200)
      invitedAthletes = invited.map((one) => one.athleteId)
      invitationRecipients = [...invited.map((one) => one.userId), parent.id].sort((a, b) => a - b)
      const holding = await send(baseUrl, "POST", "/session/create", { token: coachToken, json: { name: "holding" } })
      holdingSession = (holding.body as { id: number }).id
      for (let i = 0; i < perKind * 2; i++) {
        const made = await send(baseUrl, "POST", "/session/create", {
          token: coachToken,
          json: { name: `to update ${i}` }
        })
        sessionsToUpdate.push((made.body as { id: number }).id)
      }
    }, 300_000)
    afterAll(async () => {
      await server?.stop()
      await proxy?.close()
      await sql?.close()
      await temporary?.drop()
      await smtp?.close()
    })

    /** Sends one write as its client would: once without a key; with one, again with the same key until the answer is final. */
    const perform = async (write: Write, index: number): Promise<Outcome> => {
      const outcome: Outcome = { write, answers: [] }
      const key = `cut-${write.kind}-${index}`
      const headers: Record<string, string> = write.keyed ? { "idempotency-key": key } : {}
      const once = async (): Promise<string> => {
        try {
          if (write.kind === "task") {
            const reply = await send(baseUrl, "POST", "/todo.TodoService/CreateTask", {
              token: adminToken,
              json: { title: write.name, description: "cut" }
            })
            if (reply.status === 200) outcome.body = reply.body
            return reply.status === 200 ? "200" : `${reply.status} ${(reply.body as { code?: string }).code}`
          }
          const request = {
            session: ["POST", "/session/create", coachToken, { name: write.name }],
            invite: ["POST", "/session/create", coachToken, { name: write.name, athleteIds: invitedAthletes }],
            activity: ["POST", "/activite/create", coachToken, { name: write.name, sessionId: holdingSession }],
            athlete: ["POST", "/athletes/create", adminToken, { name: write.name, categorie: "Senior", niveau: "A" }],
            coach: ["POST", "/coaches/create", adminToken, { name: write.name }],
            update: ["PUT", `/session/update/${sessionsToUpdate[index]}`, coachToken, { duree: 1000 + index }]
          }[write.kind] as [string, string, string, unknown]
          const reply = await send(baseUrl, request[0], request[1], { token: request[2], json: request[3], headers })
          if (reply.status < 300) outcome.body = reply.body
          return String(reply.status)
        } catch (error) {
          return `error ${String(error)}`
        }
      }
      for (let tries = 0; tries < (write.keyed ? maxTries : 1); tries++) {
        const answer = await once()
        outcome.answers.push(answer)
        if (isFinal(answer)) break
        await sleep(answer === "409" ? 50 : 10)
      }
      return outcome
    }

    /**
     * What each kept write brings in its own transaction (decision 0240, docs/events.md, docs/notices.md):
     * one audit entry per row it wrote, naming the writer and the request; one outbox event; for an
     * invitation, one notice per person told. A write not kept leaves none of them.
     */
    const sideEffectViolations = async (
      outcomes: ReadonlyArray<Outcome>,
      kept: Record<Kind, Map<string, number>>
    ): Promise<Array<string>> => {
      const violations: Array<string> = []
      const byName = async (query: string) =>
        new Map((await sql.query<{ name: string; n: string }>(query)).map((row) => [row.name, Number(row.n)]))
      const audited = (table: string, column: string) =>
        byName(`SELECT changes->>'${column}' AS name, count(*) AS n FROM audit_entries
          WHERE record_type = '${table}' AND operation = 'insert' AND changes->>'${column}' LIKE 'cut %' GROUP BY 1`)
      const auditedRows: Record<Exclude<Kind, "update">, Map<string, number>> = {
        session: await audited("sessions", "name"),
        invite: await audited("sessions", "name"),
        activity: await audited("activities", "name"),
        athlete: await audited("athletes", "name"),
        coach: await audited("coaches", "name"),
        task: await audited("tasks", "title")
      }
      const eventsOf = (type: string) =>
        byName(`SELECT data->>'name' AS name, count(*) AS n FROM attendance_events
          WHERE type = '${type}' AND data->>'name' LIKE 'cut %' GROUP BY 1`)
      const events: Partial<Record<Kind, Map<string, number>>> = {
        session: await eventsOf("sessionCreated"),
        invite: await eventsOf("sessionCreated"),
        activity: await eventsOf("activityCreated")
      }
      // An invitation's rows beside the session's own: its two athletes' links, and its notices.
      const invitations = new Map(
        (await sql.query<{ name: string; links: string; recipients: Array<string> | null }>(
          `SELECT s.name,
            (SELECT count(*) FROM audit_entries a WHERE a.record_type = 'session_athletes' AND a.operation = 'insert'
              AND a.record_ids->>'session_id' = s.id::text) AS links,
            (SELECT array_agg(n.user_id ORDER BY n.user_id) FROM notices n
              WHERE n.session_id = s.id AND n.kind = 'invitation') AS recipients
          FROM sessions s WHERE s.name LIKE 'cut invite %'`
        )).map((row) => [row.name, { links: Number(row.links), recipients: (row.recipients ?? []).map(Number) }])
      )
      for (const { write } of outcomes) {
        if (write.kind === "update") continue
        const times = kept[write.kind].get(write.name) ?? 0
        const entries = auditedRows[write.kind].get(write.name) ?? 0
        if (entries !== times) violations.push(`${write.name}: kept ${times} times, ${entries} audit entries`)
        const told = events[write.kind]?.get(write.name) ?? 0
        if (events[write.kind] !== undefined && told !== times) {
          violations.push(`${write.name}: kept ${times} times, ${told} events`)
        }
        const invitation = invitations.get(write.name)
        if (write.kind === "invite" && times === 1) {
          if (invitation?.links !== invitedAthletes.length) {
            violations.push(`${write.name}: ${invitation?.links} audit entries of its athletes`)
          }
          if (JSON.stringify(invitation?.recipients) !== JSON.stringify(invitationRecipients)) {
            violations.push(`${write.name}: notices to ${JSON.stringify(invitation?.recipients)}`)
          }
        }
      }
      // No entry, event or notice of a write not kept: none names a row that is not there.
      const [orphans] = await sql.query<{ entries: string; events: string; notices: string }>(
        `SELECT
          (SELECT count(*) FROM audit_entries a WHERE a.record_type = 'sessions' AND a.operation = 'insert'
            AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = (a.record_ids->>'id')::bigint)) AS entries,
          (SELECT count(*) FROM attendance_events e WHERE e.type = 'sessionCreated'
            AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = e.session_id)) AS events,
          (SELECT count(*) FROM notices n WHERE n.kind = 'invitation'
            AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = n.session_id AND s.name LIKE 'cut invite %')) AS notices`
      )
      const left = [orphans!.entries, orphans!.events, orphans!.notices].map(Number)
      if (left.some((n) => n !== 0)) {
        violations.push(`entries, events and notices of writes not kept: ${left.join(", ")}`)
      }
      // Each entry names who wrote it and under which request.
      const [unattributed] = await sql.query<{ n: string }>(
        `SELECT count(*) AS n FROM audit_entries WHERE changes->>'name' LIKE 'cut %' AND operation = 'insert'
          AND (request_id IS NULL OR actor_user_id IS NULL
            OR (record_type IN ('sessions', 'activities') AND actor_user_id <> ${userIds.coach})
            OR (record_type IN ('athletes', 'coaches') AND actor_user_id <> ${userIds.admin}))`
      )
      if (Number(unattributed!.n) !== 0) {
        violations.push(`${Number(unattributed!.n)} entries without their writer or request`)
      }
      // An update kept changes `duree` once (a second run, by the other client, changes nothing): one
      // entry, and one event telling the change from the duree before (null).
      const [updates] = await sql.query<{ sessions: string; entries: string; events: string }>(
        `SELECT count(*) AS sessions,
          count(*) FILTER (WHERE (SELECT count(*) FROM audit_entries a WHERE a.record_type = 'sessions'
            AND a.operation = 'update' AND (a.record_ids->>'id')::bigint = s.id AND a.changes ? 'duree') = 1) AS entries,
          count(*) FILTER (WHERE (SELECT count(*) FROM attendance_events e WHERE e.type = 'sessionChanged'
            AND e.session_id = s.id AND e.data->>'previousDuree' IS NULL) = 1) AS events
        FROM sessions s WHERE s.name LIKE 'to update %' AND s.duree IS NOT NULL`
      )
      const [updated, withEntry, withEvent] = [updates!.sessions, updates!.entries, updates!.events].map(Number)
      if (updated === 0 || withEntry !== updated || withEvent !== updated) {
        violations.push(
          `updates: ${updated} sessions updated, ${withEntry} with one entry, ${withEvent} with one event`
        )
      }
      return violations
    }

    it(
      "with a key every write is kept exactly once and every client ends with its answer; without, every success is kept once and no row twice; each kept write has one audit entry per row, one event and its notices, a write not kept none",
      async () => {
        const kinds: ReadonlyArray<Kind> = ["session", "invite", "activity", "athlete", "coach", "update", "task"]
        const writes: Array<Write> = []
        for (const kind of kinds) {
          for (let i = 0; i < perKind; i++) {
            for (const keyed of kind === "task" ? [false] : [true, false]) {
              writes.push({ kind, keyed, name: `cut ${kind} ${keyed ? "keyed" : "bare"} ${i}` })
            }
          }
        }
        proxy.setRates(rates)
        const outcomes: Array<Outcome> = []
        let next = 0
        await Promise.all(Array.from({ length: writers }, async () => {
          while (next < writes.length) {
            const index = next++
            const write = writes[index]!
            outcomes.push(await perform(write, write.kind === "update" ? Math.floor(index / 2) % (perKind * 2) : index))
          }
        }))
        proxy.setRates({ "before-commit": 0, "after-commit": 0, "mid-statement": 0 })

        const counted = async (table: string, column: string) => {
          const rows = await sql.query<{ name: string; n: string }>(
            `SELECT ${column} AS name, count(*) AS n FROM ${table} WHERE ${column} LIKE 'cut %' GROUP BY 1`
          )
          return new Map(rows.map((row) => [row.name, Number(row.n)]))
        }
        const kept: Record<Kind, Map<string, number>> = {
          session: await counted("sessions", "name"),
          invite: await counted("sessions", "name"),
          activity: await counted("activities", "name"),
          athlete: await counted("athletes", "name"),
          coach: await counted("coaches", "name"),
          task: await counted("tasks", "title"),
          update: new Map()
        }
        const durees = new Map(
          (await sql.query<{ id: string; duree: number | null }>(
            `SELECT id, duree FROM sessions WHERE name LIKE 'to update %'`
          ))
            .map((row) => [Number(row.id), row.duree])
        )

        const violations: Array<string> = []
        const summary: Record<string, Record<string, number>> = {}
        for (const outcome of outcomes) {
          const { write } = outcome
          const last = outcome.answers.at(-1)!
          const success = last === "200" || last === "201" || last === "204"
          const times = kept[write.kind].get(write.name) ?? 0
          const row = `${write.kind} ${write.keyed ? "keyed" : "bare"}`
          const counts = (summary[row] ??= { sent: 0, answered: 0, kept: 0, keptTwice: 0, retries: 0 })
          counts["sent"]!++
          if (success) counts["answered"]!++
          counts["retries"]! += outcome.answers.length - 1
          if (write.kind === "update") continue
          if (times > 0) counts["kept"]!++
          if (times > 1) {
            counts["keptTwice"]!++
            violations.push(`${write.name} kept ${times} times (${outcome.answers.join(", ")})`)
          }
          if (write.keyed && !(success && times === 1)) {
            violations.push(`${write.name}: ends ${last}, kept ${times} times (${outcome.answers.join(", ")})`)
          }
          if (!write.keyed && success && times !== 1) violations.push(`${write.name}: answered ${last}, kept ${times}`)
          // Each answer is the write's own: its name.
          const answeredName = (outcome.body as { name?: unknown } | undefined)?.name
          if (success && answeredName !== undefined && answeredName !== write.name) {
            violations.push(`${write.name}: answered ${String(answeredName)}`)
          }
        }
        for (const outcome of outcomes.filter((one) => one.write.kind === "update" && one.write.keyed)) {
          if (outcome.answers.at(-1) !== "204") violations.push(`${outcome.write.name}: ends ${outcome.answers.at(-1)}`)
        }
        violations.push(...await sideEffectViolations(outcomes, kept))
        expect(durees.size).toBeGreaterThan(0)
        const results = { cuts: { ...proxy.cuts }, commitsPassed: proxy.commitsPassed(), writes: summary }
        recordResult("exactWrites", results)
        // The cuts did happen, at every point.
        expect(proxy.cuts["before-commit"]).toBeGreaterThan(0)
        expect(proxy.cuts["after-commit"]).toBeGreaterThan(0)
        expect(proxy.cuts["mid-statement"]).toBeGreaterThan(0)
        expect(violations).toEqual([])
        // The server keeps serving.
        const after = await send(baseUrl, "POST", "/session/create", { token: coachToken, json: { name: "after" } })
        expect(after.status).toBe(201)
      },
      600_000
    )
  }
)
