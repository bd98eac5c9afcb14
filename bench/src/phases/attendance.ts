import { freePort } from "@club/test-support"
import { cpuMillisOf } from "../process/cpuTime.ts"
import { runSql } from "../database/runSql.ts"
import { attendanceBurst, seedAttendance } from "../database/seedAttendance.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"
import { profileArgs } from "./profileArgs.ts"

/** One kind of burst, over its rounds: every request of a round sent at once. */
export interface BurstResult {
  readonly title: string
  readonly requestsPerRound: number
  readonly rounds: number
  /** From the first request sent to the last answer, per round. */
  readonly roundMillis: { readonly median: number; readonly max: number }
  /** Each request's time to its answer, over all rounds. */
  readonly latencyMillis: { readonly p50: number; readonly p99: number }
  readonly serverCpuMicrosPerRequest: number
  /** Whether every round left the session as the rules say (checked after each round). */
  readonly correctRounds: number
}

export interface AttendanceResult {
  readonly athletes: number
  readonly capacity: number
  readonly bursts: ReadonlyArray<BurstResult>
}

interface SessionReplies {
  readonly confirmed: number
  readonly waiting: number
  readonly replies: ReadonlyArray<
    { readonly athleteId: number; readonly state: string; readonly waitingPosition: number | null }
  >
}

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

/**
 * Issue 18's burst on the project alone: the 200 athletes of one session of 20 places reply yes at
 * once (each request its own connection, as 200 phones would), then the 20 confirmed answer no at
 * once and the first 20 waiting are promoted. Each round starts from no replies; the session is
 * read back after each burst, and a round counts as correct only if exactly the capacity is
 * confirmed, the rest wait in positions 1..n, and (after the noes) the promoted are the first
 * waiting.
 */
export const attendancePhase = async (): Promise<AttendanceResult> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "attendance")
  try {
    const project = await startProject({
      name: "project",
      port: await freePort(),
      database: { kind: "server", url: database.url },
      nodeArgs: profileArgs("project"),
      logLevel: settings.logLevel
    })
    try {
      const seeded = await runSql(database.url, seedAttendance)
      const { token } = await prepareCallers(project.url, seeded)
      const sessionId = seeded.sessions.min
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${project.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const text = await response.text()
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
        return text.length === 0 ? undefined : JSON.parse(text) as unknown
      }
      await call("PUT", `/attendance/sessions/${sessionId}/settings`, { capacity: attendanceBurst.capacity })
      const athletes = Array.from(
        { length: seeded.athletes.max - seeded.athletes.min + 1 },
        (_, i) => seeded.athletes.min + i
      )
      const read = async () => (await call("GET", `/attendance/sessions/${sessionId}/replies`)) as SessionReplies
      const reply = (athleteId: number, answer: "yes" | "no") =>
        call("PUT", `/attendance/athletes/${athleteId}/replies/${sessionId}`, { answer })
      const burst = async (ids: ReadonlyArray<number>, answer: "yes" | "no", latencies: Array<number>) => {
        const started = performance.now()
        await Promise.all(ids.map(async (id) => {
          const sent = performance.now()
          await reply(id, answer)
          latencies.push(performance.now() - sent)
        }))
        return performance.now() - started
      }
      const rounds = settings.attendanceRounds
      const yes = { rounds: [] as Array<number>, latencies: [] as Array<number>, cpu: 0, correct: 0 }
      const no = { rounds: [] as Array<number>, latencies: [] as Array<number>, cpu: 0, correct: 0 }
      // The first round warms the server up and is not counted.
      for (let round = 0; round <= rounds; round++) {
        await Promise.all(athletes.map((id) => reply(id, "no")))
        const counted = round > 0
        let cpu = cpuMillisOf(project.child.pid)
        const yesMillis = await burst(athletes, "yes", counted ? yes.latencies : [])
        if (counted) yes.cpu += cpuMillisOf(project.child.pid) - cpu
        const afterYes = await read()
        const waitingInOrder = afterYes.replies.filter((r) => r.state === "waiting")
        const yesCorrect = afterYes.confirmed === attendanceBurst.capacity &&
          afterYes.waiting === athletes.length - attendanceBurst.capacity &&
          waitingInOrder.every((r, i) => r.waitingPosition === i + 1)
        const confirmed = afterYes.replies.filter((r) => r.state === "confirmed").map((r) => r.athleteId)
        const nextInLine = waitingInOrder.slice(0, confirmed.length).map((r) => r.athleteId).sort((a, b) => a - b)
        cpu = cpuMillisOf(project.child.pid)
        const noMillis = await burst(confirmed, "no", counted ? no.latencies : [])
        if (counted) no.cpu += cpuMillisOf(project.child.pid) - cpu
        const afterNo = await read()
        const promoted = afterNo.replies.filter((r) => r.state === "confirmed").map((r) => r.athleteId).sort((a, b) =>
          a - b
        )
        const noCorrect = afterNo.confirmed === attendanceBurst.capacity &&
          afterNo.waiting === athletes.length - 2 * attendanceBurst.capacity &&
          promoted.join() === nextInLine.join()
        if (!counted) continue
        yes.rounds.push(yesMillis)
        no.rounds.push(noMillis)
        if (yesCorrect) yes.correct++
        if (noCorrect) no.correct++
      }
      const summary = (
        title: string,
        requestsPerRound: number,
        m: { rounds: Array<number>; latencies: Array<number>; cpu: number; correct: number }
      ): BurstResult => {
        const roundsSorted = [...m.rounds].sort((a, b) => a - b)
        const latencies = [...m.latencies].sort((a, b) => a - b)
        return {
          title,
          requestsPerRound,
          rounds,
          roundMillis: { median: quantile(roundsSorted, 0.5), max: roundsSorted.at(-1)! },
          latencyMillis: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) },
          serverCpuMicrosPerRequest: (m.cpu * 1000) / (requestsPerRound * rounds),
          correctRounds: m.correct
        }
      }
      return {
        athletes: athletes.length,
        capacity: attendanceBurst.capacity,
        bursts: [
          summary(`${athletes.length} athletes answer yes at once`, athletes.length, yes),
          summary(
            `the ${attendanceBurst.capacity} confirmed answer no at once (as many promoted)`,
            attendanceBurst.capacity,
            no
          )
        ]
      }
    } finally {
      await project.child.stop()
    }
  } finally {
    await database.drop()
  }
}
