import type { Scenario } from "./scenarios.ts"

/** The month the schedule scenario reads: the club's March, a daylight-saving change in Europe included. */
export const scheduleMonth = { from: "2026-03-01T00:00:00", to: "2026-04-01T00:00:00" } as const

/**
 * Issue 17's schedule, measured on the project alone (the baseline has no such endpoints): a
 * coach reading a month of the club's planning in one page, and a calendar app polling a group's
 * feed, unchanged (304) and rendered. The feed's path and ETag come in the load context.
 */
export const scheduleScenarios: ReadonlyArray<Scenario> = [
  {
    name: "schedule-month",
    title: "GET /planning/sessions, a month of a 200-athlete club",
    kind: "read",
    expectedStatus: 200,
    request: () => ({
      method: "GET",
      path: `/planning/sessions?from=${scheduleMonth.from}&to=${scheduleMonth.to}&limit=500`
    })
  },
  {
    name: "feed-poll",
    title: "GET a group's calendar feed, unchanged (If-None-Match: 304)",
    kind: "read",
    expectedStatus: 304,
    request: ({ feed }) => ({ method: "GET", path: feed!.path, headers: { "if-none-match": feed!.etag } })
  },
  {
    name: "feed-render",
    title: "GET a group's calendar feed, rendered",
    kind: "read",
    expectedStatus: 200,
    request: ({ feed }) => ({ method: "GET", path: feed!.path })
  }
]
