import { Effect } from "effect"
import { federation, seedFederation, type SeededFederation } from "../database/seedFederation.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { membershipScenarios } from "../membershipScenarios.ts"
import type { BenchRequest, LoadContext, Scenario } from "../scenarios.ts"
import { settings } from "../settings.ts"
import { answerOf, expectSameAnswers } from "./answerItems.ts"
import { prepareCallers } from "./callers.ts"
import { type SideBySide, startSideBySide } from "./sideBySide.ts"

export interface MembershipResult {
  readonly scenario: Scenario
  readonly project: Measurement
  readonly baseline: Measurement
  /** What the checked answers held: the fewest and the most entries of a page. */
  readonly answer: string
}

/** What the federation's seed wrote, and how long it took (the statements and the vacuum after). */
export interface FederationSeed {
  readonly groups: number
  readonly teams: number
  readonly athletes: number
  readonly memberships: number
  readonly sessions: number
  readonly sessionAthletes: number
  readonly seconds: number
}

export interface MembershipRun {
  readonly seed: FederationSeed
  readonly results: ReadonlyArray<MembershipResult>
}

/** Requests drawn and compared on both servers before a scenario is measured. */
const checkedDraws = 5

/** The scenario's request with a `limit`, so that the page is cut and carries a `nextCursor`. */
const withLimit = (scenario: Scenario, limit: number): Scenario => ({
  ...scenario,
  request: (context): BenchRequest => {
    const request = scenario.request(context)
    return { ...request, path: `${request.path}${request.path.includes("?") ? "&" : "?"}limit=${limit}` }
  }
})

const itemsOf = (answer: unknown) => ((answer as { readonly items?: ReadonlyArray<unknown> }).items ?? []).length

/**
 * Fails unless both servers answer the same, field for field, to `checkedDraws` requests drawn as
 * the load draws them, and to one page cut short (its `nextCursor`, sealed by each, included).
 * Answers the range of the entries the full pages held.
 */
const expectSameMembershipAnswers = async (servers: SideBySide, scenario: Scenario, context: LoadContext) => {
  const counts: Array<number> = []
  for (let draw = 0; draw < checkedDraws; draw++) {
    const request = scenario.request(context)
    const baseline = await answerOf(servers.baseline, scenario, context, request)
    const project = await answerOf(servers.project, scenario, context, request)
    expectSameAnswers(scenario, baseline, project)
    counts.push(itemsOf(project))
  }
  const short = withLimit(scenario, 3)
  const request = short.request(context)
  const baseline = await answerOf(servers.baseline, short, context, request)
  const project = await answerOf(servers.project, short, context, request)
  expectSameAnswers(short, baseline, project)
  if ((project as { readonly nextCursor: unknown }).nextCursor === null) {
    throw new Error(`${scenario.name}: a page of 3 of ${request.path} has no next page; the cursors went unchecked`)
  }
  const [fewest, most] = [Math.min(...counts), Math.max(...counts)]
  return fewest === most ? `${fewest} entries` : `${fewest}–${most} entries`
}

const selected = (scenario: Scenario) => settings.scenarios === undefined || settings.scenarios.includes(scenario.name)

/**
 * Issue 41's reads at a federation's size (item 6), project and baseline side by side on a fresh
 * PostgreSQL database seeded with seedFederation; the caller is a coach. Each scenario's answers
 * are first checked equal on both servers; then it is measured as the lists are (ABBA).
 */
export const membershipPhase = async (): Promise<MembershipRun | undefined> => {
  const scenarios = membershipScenarios.filter(selected)
  if (scenarios.length === 0) return undefined
  const database = await createTemporaryDatabase(settings.serverUrl, "membership")
  try {
    let seconds = 0
    const servers = await startSideBySide(database.url, (sql) =>
      Effect.suspend(() => {
        const started = Date.now()
        return Effect.tap(seedFederation(sql), () =>
          Effect.sync(() => {
            seconds = (Date.now() - started) / 1000
          }))
      }))
    const seeded = servers.seeded as SeededFederation
    const seed: FederationSeed = {
      groups: seeded.groups.max - seeded.groups.min + 1,
      teams: seeded.teams.max - seeded.teams.min + 1,
      athletes: seeded.athletes.max - seeded.athletes.min + 1,
      memberships: seeded.rows.memberships,
      sessions: seeded.sessions.max - seeded.sessions.min + 1,
      sessionAthletes: seeded.rows.sessionAthletes,
      seconds
    }
    console.log(
      `  seeded ${seed.groups} groups, ${seed.athletes} athletes, ${seed.memberships} memberships, ` +
        `${seed.sessions} sessions (${federation.sessionsPerDay} a day) in ${seconds.toFixed(0)} s`
    )
    const context = await prepareCallers(servers.project.url, seeded)
    const results: Array<MembershipResult> = []
    for (const scenario of scenarios) {
      console.log(`  ${scenario.name}`)
      const answer = await expectSameMembershipAnswers(servers, scenario, context)
      results.push({ scenario, ...(await servers.measure(scenario, context)), answer })
    }
    await servers.stop()
    return { seed, results }
  } finally {
    await database.drop()
  }
}
