import { setTimeout as sleep } from "node:timers/promises"
import { freePort } from "@club/test-support"
import { Effect } from "effect"
import { runSql } from "../database/runSql.ts"
import { seed, type Seeded } from "../database/seed.ts"
import { seedFederation } from "../database/seedFederation.ts"
import { seedSkewedSessions, skewedRange } from "../database/seedSkewedSessions.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import { listEndpoints } from "../listScenarios.ts"
import { membershipScenarios } from "../membershipScenarios.ts"
import { requestHeaders } from "../load/requestHeaders.ts"
import { explainUnderPlanModes } from "../queries/explainUnderPlanModes.ts"
import { parameterText } from "../queries/parameterLiteral.ts"
import { type PlanCost, planVerdict, type PlanVerdict } from "../queries/planStability.ts"
import { type ExecutedStatement, startStatementCounter } from "../queries/StatementCounter.ts"
import { statementSummary } from "../queries/statementSummary.ts"
import type { BenchRequest, LoadContext, Scenario } from "../scenarios.ts"
import { scenarios } from "../scenarios.ts"
import { invitedToSession, rosterOnDay, sessionsOfInvitedAthlete } from "../servers/baseline/statements.ts"
import type { ServerProcess } from "../servers/ServerProcess.ts"
import { admin, startProject } from "../servers/servers.ts"
import { login } from "../servers/api.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"

/** A read the contract offers, as the bench's scenarios send it. */
export interface PlanRead {
  readonly title: string
  readonly kind: Scenario["kind"]
  readonly request: (context: LoadContext) => BenchRequest
}

/** Every read the bench knows: the throughput phase's reads and Connect ListTasks, and every list endpoint. */
export const planReads: ReadonlyArray<PlanRead> = [
  ...scenarios.filter((s) => s.kind === "read" || s.name === "connect-list"),
  ...listEndpoints
]

export interface PlanCheck {
  readonly text: string
  readonly sent: ExecutedStatement["sent"]
  /** The reads that sent it. */
  readonly reads: ReadonlyArray<string>
  /** The values it was checked with, as text (null: SQL NULL). */
  readonly parameters: ReadonlyArray<string | null>
  readonly custom?: PlanCost
  readonly generic?: PlanCost
  readonly unchecked?: string
  readonly verdict: PlanVerdict
}

export interface PlanDataSet {
  readonly dataSet: string
  readonly checks: ReadonlyArray<PlanCheck>
}

/** Statements that read: SELECT, and WITH queries that do not write. Credential lookups are reads too. */
export const isRead = (text: string): boolean => {
  const head = text.trimStart().slice(0, 10).toUpperCase()
  if (head.startsWith("SELECT")) return true
  return head.startsWith("WITH") && !/\b(INSERT|UPDATE|DELETE|MERGE)\b/i.test(text)
}

const send = async (server: ServerProcess, read: PlanRead, context: LoadContext) => {
  const request = read.request(context)
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: requestHeaders(read as Scenario, context, request),
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.timeout(60_000)
  })
  await response.arrayBuffer()
  return response.status
}

/** Each distinct read statement once, with the reads that sent it and the values of its first execution. */
const distinctReads = (sentBy: ReadonlyArray<{ readonly read: string; readonly statement: ExecutedStatement }>) => {
  const byText = new Map<string, { statement: ExecutedStatement; reads: Array<string> }>()
  for (const { read, statement } of sentBy) {
    if (!isRead(statement.text)) continue
    const seen = byText.get(statement.text)
    if (seen === undefined) byText.set(statement.text, { statement, reads: [read] })
    else if (!seen.reads.includes(read)) seen.reads.push(read)
  }
  return [...byText.values()]
}

const checkStatements = (
  databaseUrl: string,
  statements: ReadonlyArray<{ readonly statement: ExecutedStatement; readonly reads: ReadonlyArray<string> }>
) =>
  runSql(
    databaseUrl,
    (sql) =>
      Effect.forEach(statements, ({ reads, statement }, index) =>
        explainUnderPlanModes(sql, statement, `bench_plans_${index}`).pipe(
          Effect.catch((error) =>
            Effect.succeed({ unchecked: `replay failed: ${String(error)}` })
          ),
          Effect.map((rows): PlanCheck => {
            const parameters = statement.parameters.map((parameter, i) => {
              const text = parameterText(parameter, statement.parameterTypes[i] ?? 0)
              return "text" in text ? text.text : `(${text.unsupported})`
            })
            const common = { text: statement.text, sent: statement.sent, reads, parameters }
            return "unchecked" in rows
              ? { ...common, unchecked: rows.unchecked, verdict: "unchecked" }
              : {
                ...common,
                custom: rows.custom,
                generic: rows.generic,
                verdict: planVerdict(statement.sent, rows.custom, rows.generic)
              }
          })
        ))
  )

const costText = (cost: PlanCost | undefined) =>
  cost === undefined ? "-".padStart(15) : `${String(cost.rows).padStart(6)} rows ${String(cost.pages).padStart(4)} p`

export const reportCheck = (check: PlanCheck) =>
  console.log(
    `  ${check.verdict.padEnd(9)} custom ${costText(check.custom)}  generic ${costText(check.generic)}  ` +
      `${check.sent.padEnd(7)}  ${statementSummary(check.text, 140)}` +
      (check.unchecked === undefined ? "" : `  (${check.unchecked})`)
  )

/**
 * Runs the project's server through the statement-recording proxy on a fresh database seeded by
 * `seedData`, sends every read once as each caller (after the caller's cached credentials expired,
 * so that the lookup is sent too), and checks each distinct read statement it executed.
 */
const checkDataSet = async (
  dataSet: string,
  seedData: (url: string) => Promise<Seeded>,
  reads: ReadonlyArray<PlanRead>,
  copies: ReadonlyArray<BaselineCopy> = []
): Promise<PlanDataSet> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "plans")
  const counter = await startStatementCounter(settings.serverUrl)
  try {
    const project = await startProject({
      name: "project-plans",
      port: await freePort(),
      database: { kind: "server", url: counter.url(database.url) }
    })
    const seeded = await seedData(database.url)
    const coach = await prepareCallers(project.url, seeded)
    const callers: ReadonlyArray<LoadContext> = [
      { seeded, token: await login(project.url, admin), login: admin },
      coach
    ]
    const sentBy: Array<{ read: string; statement: ExecutedStatement }> = []
    const answered = new Set<PlanRead>()
    for (const context of callers) {
      await sleep(1_100)
      for (const read of reads) {
        counter.reset()
        const status = await send(project, read, context)
        if (status >= 200 && status < 300) answered.add(read)
        for (const statement of counter.executions()) sentBy.push({ read: read.title, statement })
      }
    }
    // Each role is refused some reads (the admin a session by id, the coach the user list), but
    // every read must be answered to one of them, or its statements were never sent.
    const refused = reads.filter((read) => !answered.has(read))
    if (refused.length > 0) throw new Error(`refused to every caller: ${refused.map((r) => r.title).join(", ")}`)
    const stale = copies.filter((copy) => !sentBy.some(({ statement }) => statement.text === copy.text))
    if (stale.length > 0) {
      throw new Error(
        `the baseline's ${stale.map((c) => c.name).join(", ")} in src/servers/baseline/statements.ts ` +
          "no longer match any statement the project sent: copy the project's statements again"
      )
    }
    await project.child.stop()
    const checks = await checkStatements(database.url, distinctReads(sentBy))
    console.log(`  on ${dataSet}:`)
    checks.forEach(reportCheck)
    return { dataSet, checks }
  } finally {
    await counter.close()
    await database.drop()
  }
}

/**
 * The reads of an athlete's sessions, on the skewed data set: the statement PostgreSQL would run
 * with a bad generic plan there, were it prepared.
 */
const athleteSessionReads: ReadonlyArray<PlanRead> = [
  {
    title: "GET /athletes/athletes/{id}/session/between/…",
    kind: "read",
    request: ({ seeded }) => ({
      method: "GET",
      path: `/athletes/athletes/${seeded.athletes.min}/session/between/${skewedRange.from}/${skewedRange.to}`
    })
  },
  {
    title: "GET /athletes/athletes/{id}/session/after/…",
    kind: "read",
    request: ({ seeded }) => ({
      method: "GET",
      path: `/athletes/athletes/${seeded.athletes.min}/session/after/${skewedRange.from}`
    })
  },
  {
    title: "GET /athletes/athlete/{id}/session",
    kind: "read",
    request: ({ seeded }) => ({ method: "GET", path: `/athletes/athlete/${seeded.athletes.min}/session` })
  }
]

/** A statement of the baseline's that must be, text for text, one the project sends. */
interface BaselineCopy {
  readonly name: string
  readonly text: string
}

/**
 * The membership phase's reads, on the federation it measures them on. The baseline's copies of
 * their statements are checked here, where the project's statements are recorded: a change to the
 * project's statement that the copy did not follow fails the run.
 */
const membershipReads: ReadonlyArray<PlanRead> = membershipScenarios
const membershipCopies: ReadonlyArray<BaselineCopy> = [
  { name: "invitedToSession", text: invitedToSession },
  { name: "sessionsOfInvitedAthlete", text: sessionsOfInvitedAthlete },
  { name: "rosterOnDay", text: rosterOnDay }
]

export const throughputDataSet = "the throughput data set"
export const skewedDataSet = "the skewed data set of stablePlans.test.ts"
export const federationDataSet = "the federation of the membership phase"

/**
 * Every read statement the project sends, checked for a stable plan: under
 * `plan_cache_mode = force_generic_plan` its plan fetches no more rows than under
 * `force_custom_plan`, within planStability.ts's margin (bench/README.md, "plans"). Then the
 * athlete's sessions again on a data set where their generic plan is known to be bad: the check
 * must flag it there, or it could not tell a bad plan from a good one. Last, issue 41's membership
 * reads on the federation (seedFederation, under a minute to seed).
 */
export const plansPhase = async (): Promise<ReadonlyArray<PlanDataSet>> => [
  await checkDataSet(throughputDataSet, (url) => runSql(url, (sql) => seed(sql, settings.dataSet)), planReads),
  await checkDataSet(skewedDataSet, (url) => runSql(url, seedSkewedSessions), athleteSessionReads),
  await checkDataSet(federationDataSet, (url) => runSql(url, seedFederation), membershipReads, membershipCopies)
]

export const plansFailed = (dataSets: ReadonlyArray<PlanDataSet>) =>
  dataSets.flatMap((d) => d.checks).filter((check) => check.verdict === "FAIL" || check.verdict === "unchecked")
