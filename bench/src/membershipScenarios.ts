import { federation, seededFederation } from "./database/seedFederation.ts"
import { pick, type Scenario } from "./scenarios.ts"

/**
 * Issue 41's reads at a federation's size (item 6), on the data of seedFederation, project and
 * baseline side by side: who is invited to a team's session, an athlete's sessions of a month,
 * and a team's roster on a day where the date decides. Each request draws its session, athlete or
 * team anew; every answer fits in one page (the default 50), so both servers answer `nextCursor` null.
 */
export const membershipScenarios: ReadonlyArray<Scenario> = [
  {
    name: "membership-invited",
    title: "GET /attendance/sessions/{id}/invited, a team's session (~41 members, 2 own)",
    kind: "read",
    expectedStatus: 200,
    request: ({ seeded }) => ({
      method: "GET",
      path: `/attendance/sessions/${pick(seededFederation(seeded).fullSessions)}/invited`
    })
  },
  {
    name: "membership-athlete-sessions",
    title: "GET /attendance/athletes/{id}/sessions?from=&to=, a month (2 teams)",
    kind: "read",
    expectedStatus: 200,
    request: ({ seeded }) => ({
      method: "GET",
      path: `/attendance/athletes/${pick(seeded.athletes)}/sessions?from=${federation.from}&to=${federation.to}`
    })
  },
  {
    name: "membership-roster",
    title: "GET /groups/{id}/members?on=, a team's roster (~20 of its ~61 memberships)",
    kind: "read",
    expectedStatus: 200,
    request: ({ seeded }) => ({
      method: "GET",
      path: `/groups/${pick(seededFederation(seeded).teams)}/members?on=${federation.rosterDay}`
    })
  }
]
