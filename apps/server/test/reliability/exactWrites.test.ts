import { temporaryTestDatabase, type TemporaryDatabase } from "@club/postgres-adapter/testing"
import { type ServerProcess, spawnServer, waitUntilLive } from "@club/test-support"
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

type Kind = "session" | "activity" | "athlete" | "coach" | "update" | "task"

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
    const sessionsToUpdate: Array<number> = []

    beforeAll(async () => {
      temporary = (await temporaryTestDatabase())!
      proxy = await startCommitCuttingProxy(temporary.server)
      sql = await openSql(temporary.urlVia(temporary.server.host, temporary.server.port))
      server = await spawnServer({
        ADMIN_NAME: adminName,
        ADMIN_PASSWORD: adminPassword,
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: "error",
        DATABASE_URL: temporary.urlVia("127.0.0.1", proxy.port)
      })
      await waitUntilLive(server)
      baseUrl = `http://127.0.0.1:${server.port}`
      adminToken = await login(baseUrl, adminName, adminPassword)
      const coach = await send(baseUrl, "POST", "/coaches/create", { token: adminToken, json: { name: "Cut coach" } })
      const coachId = (coach.body as { id: number }).id
      await send(baseUrl, "POST", "/users/create", {
        token: adminToken,
        json: { name: "cutcoach", role: "COACH", password: "cut-coach-password-0", coachId }
      })
      coachToken = await login(baseUrl, "cutcoach", "cut-coach-password-0")
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

    it(
      "with a key every write is kept exactly once and every client ends with its answer; without, every success is kept once and no row twice",
      async () => {
        const kinds: ReadonlyArray<Kind> = ["session", "activity", "athlete", "coach", "update", "task"]
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
