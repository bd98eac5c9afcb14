import { freePort } from "@club/test-support"
import { runSql } from "../database/runSql.ts"
import { seedSchedule } from "../database/seedSchedule.ts"
import { createTemporaryDatabase } from "../database/temporaryDatabase.ts"
import type { Measurement } from "../load/LoadResult.ts"
import { measureSideBySide } from "../load/measure.ts"
import type { Scenario } from "../scenarios.ts"
import { scheduleScenarios } from "../scheduleScenarios.ts"
import { startProject } from "../servers/servers.ts"
import { settings } from "../settings.ts"
import { prepareCallers } from "./callers.ts"
import { loadOptions } from "./loadOptions.ts"
import { profileArgs } from "./profileArgs.ts"

export interface ScheduleResult {
  readonly scenario: Scenario
  readonly project: Measurement
  /** The answer's size: sessions listed, or bytes of the feed. */
  readonly answer: string
}

/** The caller's feed token, the path of group G1's feed and its current ETag. */
const feedOf = async (url: string, token: string) => {
  const rotated = await fetch(`${url}/planning/feed-token`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` }
  })
  if (!rotated.ok) throw new Error(`POST /planning/feed-token: ${rotated.status} ${await rotated.text()}`)
  const { groupPattern } = (await rotated.json()) as { groupPattern: string }
  const path = groupPattern.replace("{groupe}", "G1")
  const feed = await fetch(`${url}${path}`)
  const body = await feed.text()
  const etag = feed.headers.get("etag")
  if (!feed.ok || etag === null) throw new Error(`GET ${path}: ${feed.status}, ETag ${etag}`)
  return { path, etag, events: body.split("BEGIN:VEVENT").length - 1, bytes: Buffer.byteLength(body) }
}

/**
 * Issue 17's schedule on the project alone (the baseline has no planning or feeds), on a club of
 * 200 athletes with a season of trainings (seedSchedule), on the PostgreSQL server.
 */
export const schedulePhase = async (): Promise<ReadonlyArray<ScheduleResult>> => {
  const database = await createTemporaryDatabase(settings.serverUrl, "schedule")
  try {
    const project = await startProject({
      name: "project",
      port: await freePort(),
      database: { kind: "server", url: database.url },
      nodeArgs: profileArgs("project"),
      logLevel: settings.logLevel,
      // A club with daylight saving, so that the feed carries its VTIMEZONE and zoned times.
      env: { CLUB_TIMEZONE: "Europe/Paris" }
    })
    try {
      const seeded = await runSql(database.url, seedSchedule)
      const callers = await prepareCallers(project.url, seeded)
      const feed = await feedOf(project.url, callers.token)
      const context = { ...callers, feed: { path: feed.path, etag: feed.etag } }
      const month = await fetch(`${project.url}${scheduleScenarios[0]!.request(context).path}`, {
        headers: { authorization: `Bearer ${callers.token}` }
      })
      const listed = ((await month.json()) as { items: ReadonlyArray<unknown> }).items.length
      const answers: Record<string, string> = {
        "schedule-month": `${listed} sessions`,
        "feed-poll": "304, no body",
        "feed-render": `${feed.events} events, ${Math.round(feed.bytes / 1024)} KiB`
      }
      const results: Array<ScheduleResult> = []
      for (const scenario of scheduleScenarios) {
        if (settings.scenarios !== undefined && !settings.scenarios.includes(scenario.name)) continue
        const [measurement] = await measureSideBySide([project], scenario, context, loadOptions())
        results.push({ scenario, project: measurement!, answer: answers[scenario.name] ?? "" })
      }
      return results
    } finally {
      await project.child.stop()
    }
  } finally {
    await database.drop()
  }
}
