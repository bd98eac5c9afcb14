import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { addPeople, type IdRange, rangeOf, type Seeded, settle } from "./seed.ts"

/**
 * A federation (issue 41, item 6): 5,000 groups in one tree (the federation, 99 regions under it,
 * 4,900 teams under the regions), a coach per team, 100,000 athletes, each a member of two teams
 * (one membership open since the season's start; in the other, one that ended on the 10th and a
 * later one open from the 20th, so that the date decides), and 1,000 sessions a day over a month,
 * each of a team, with two athletes of its own.
 */
export const federation = {
  groups: 5_000,
  regions: 99,
  teams: 4_900,
  coaches: 4_900,
  athletes: 100_000,
  sessionsPerDay: 1_000,
  days: 30,
  /** The month the sessions fall in; an athlete's sessions are read over all of it. */
  from: "2027-03-01",
  to: "2027-03-30",
  /** The second team's first membership ends on this day, its second starts on `returns`. */
  leaves: "2027-03-10",
  returns: "2027-03-20",
  /** The day a team's roster is read on: between `leaves` and `returns`, so the date decides. */
  rosterDay: "2027-03-15"
} as const

/**
 * Athlete i (0-based) is in team `i mod 4900` and team `(3i + 1) mod 4900`. The multiplier is prime
 * to 4900, so the second team is spread over all teams as the first is (a multiplier sharing a
 * factor with 4900 would pile every second membership onto a few teams), and the two teams never
 * coincide (2i ≡ -1 mod 4900 has no solution).
 */
const secondTeam = { multiplier: 3, offset: 1 } as const

export interface SeededFederation extends Seeded {
  readonly groups: IdRange
  /** The teams: the groups that have members and sessions. */
  readonly teams: IdRange
  /**
   * The sessions of the first ten days, on which both memberships of every member hold: a session
   * there invites its team's whole roster (about 41) and its two own athletes.
   */
  readonly fullSessions: IdRange
  /** Rows written, for the report. */
  readonly rows: { readonly memberships: number; readonly sessionAthletes: number }
}

/** The context's federation ids: the scenarios of the membership phase run on this seed only. */
export const seededFederation = (seeded: Seeded): SeededFederation => {
  if (!("teams" in seeded)) throw new Error("the membership scenarios need the federation's seed (seedFederation)")
  return seeded as SeededFederation
}

const count = (rows: ReadonlyArray<{ readonly count: unknown }>) => Number(rows[0]?.count ?? 0)

/**
 * Set-based, one statement a table (the teams' and the memberships' joins are on the groups'
 * unique names). Numbers that decide an integer division or a series are cast to int: the driver
 * binds a JavaScript number as it chooses.
 */
export const seedFederation = (sql: SqlClient.SqlClient): Effect.Effect<SeededFederation, unknown> =>
  Effect.gen(function*() {
    const teams = federation.teams
    if (federation.groups !== 1 + federation.regions + teams) throw new Error("the tree's sizes do not add up")
    const people = yield* addPeople(sql, { coaches: federation.coaches, athletes: federation.athletes })
    const first = people.athletes.min
    yield* sql`INSERT INTO groups (name, parent_id) VALUES ('Federation', NULL)`
    yield* sql`INSERT INTO groups (name, parent_id)
      SELECT 'Region ' || r, (SELECT id FROM groups WHERE parent_id IS NULL)
      FROM generate_series(0, ${federation.regions - 1}::int) AS r ORDER BY r`
    const teamIds = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO groups (name, parent_id)
        SELECT 'Team ' || t, r.id
        FROM generate_series(0, ${teams - 1}::int) AS t
          JOIN groups r ON r.name = 'Region ' || (t % ${federation.regions}::int)
        ORDER BY t
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    const groups = rangeOf(yield* sql<{ min: unknown; max: unknown }>`SELECT min(id), max(id) FROM groups`)
    // Team t's coach is coach t (0-based), who also coaches its sessions.
    yield* sql`INSERT INTO group_coaches (group_id, coach_id)
      SELECT g.id, ${people.coaches.min}::bigint + substr(g.name, 6)::int % ${federation.coaches}::int
      FROM groups g WHERE g.name LIKE 'Team %'`
    const memberships = count(
      yield* sql<{ count: unknown }>`WITH inserted AS (
        INSERT INTO memberships (group_id, athlete_id, from_date, until_date)
        SELECT g.id, a.id, date '2026-09-01', NULL::date
        FROM athletes a JOIN groups g ON g.name = 'Team ' || ((a.id - ${first}::bigint) % ${teams}::int)
        WHERE a.id BETWEEN ${first}::bigint AND ${people.athletes.max}::bigint
        UNION ALL
        SELECT g.id, a.id, p.from_date, p.until_date
        FROM athletes a
          JOIN groups g ON g.name = 'Team ' || (((a.id - ${first}::bigint) * ${secondTeam.multiplier}::int
            + ${secondTeam.offset}::int) % ${teams}::int)
          CROSS JOIN (VALUES (date '2026-09-01', ${federation.leaves}::date), (${federation.returns}::date, NULL::date))
            AS p (from_date, until_date)
        WHERE a.id BETWEEN ${first}::bigint AND ${people.athletes.max}::bigint
        RETURNING 1)
      SELECT count(*) FROM inserted`
    )
    // 1,000 sessions a day, on the hour from 08:00 to 20:00; session s of team s mod 4900, coached
    // by the team's coach.
    const sessions = rangeOf(
      yield* sql<{ min: unknown; max: unknown }>`WITH inserted AS (
        INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id)
        SELECT 'Training ' || s, false,
          ${federation.from}::timestamp + (s / ${federation.sessionsPerDay}::int) * interval '1 day'
            + (s % 13) * interval '1 hour',
          60, 'Team ' || (s % ${teams}::int), ${people.coaches.min}::bigint + (s % ${teams}::int) % ${federation.coaches}::int
        FROM generate_series(0, ${federation.sessionsPerDay * federation.days - 1}::int) AS s
        ORDER BY s
        RETURNING id)
      SELECT min(id), max(id) FROM inserted`
    )
    // Two athletes of its own: the team's first member (invited twice over: `athlete`, with its
    // group) and the next team's (a guest, not a member), so both sides of "who is invited" answer.
    const sessionAthletes = count(
      yield* sql<{ count: unknown }>`WITH inserted AS (
        INSERT INTO session_athletes (session_id, athlete_id)
        SELECT s.id, ${first}::bigint + ((s.id - ${sessions.min}::bigint) % ${teams}::int + k) % ${teams}::int
        FROM sessions s, generate_series(0, 1) AS k
        WHERE s.id BETWEEN ${sessions.min}::bigint AND ${sessions.max}::bigint
        RETURNING 1)
      SELECT count(*) FROM inserted`
    )
    yield* settle(sql)
    return {
      ...people,
      sessions,
      groups,
      teams: teamIds,
      fullSessions: { min: sessions.min, max: sessions.min + 10 * federation.sessionsPerDay - 1 },
      rows: { memberships, sessionAthletes }
    }
  })
