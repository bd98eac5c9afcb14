import {
  type AthleteId,
  type CalendarDate,
  type GroupId,
  GroupRepository,
  InvitationRepository,
  type LocalDateTime,
  type SessionId
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { countStatements } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * A club of `groups` groups under one root, `members` members each (every athlete also in a second
 * group), and `sessions` sessions a group in 2032, written with plain SQL: this test is about the
 * cost of reading (issue 41's scale item: each read one bounded statement).
 */
const seedClub = (groups: number, members: number, sessions: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO groups (name, parent_id) SELECT 'Club', NULL
      WHERE NOT EXISTS (SELECT 1 FROM groups WHERE parent_id IS NULL)`
    yield* sql`WITH g AS (
        INSERT INTO groups (name, parent_id)
        SELECT 'team ' || ${groups} || '-' || n, (SELECT id FROM groups WHERE parent_id IS NULL)
        FROM generate_series(0, ${groups - 1}) AS n RETURNING id, name),
      numbered AS (SELECT id, name, row_number() OVER (ORDER BY id) - 1 AS n FROM g),
      a AS (
        INSERT INTO athletes (name) SELECT 'member ' || n FROM generate_series(1, ${
      groups * members
    }) AS n RETURNING id),
      an AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM a),
      m AS (
        INSERT INTO memberships (group_id, athlete_id, from_date)
        SELECT g.id, an.id, date '2032-01-01' FROM an JOIN numbered g ON g.n = an.n % ${groups}
        UNION ALL
        SELECT g.id, an.id, date '2032-03-01' FROM an JOIN numbered g ON g.n = (an.n + 1) % ${groups})
      INSERT INTO sessions (name, creneau, groupe)
      SELECT 'training', timestamp '2032-01-05 18:00' + (k * 10 % 360) * interval '1 day', g.name
      FROM numbered g, generate_series(1, ${sessions}) AS k`
    const [first] = yield* sql<{ session: number; athlete: number; group: number }>`SELECT
        (SELECT min(s.id)::float8 FROM sessions s WHERE s.groupe = 'team ' || ${groups} || '-0') AS session,
        (SELECT id::float8 FROM groups WHERE name = 'team ' || ${groups} || '-0') AS group,
        (SELECT min(m.athlete_id)::float8 FROM memberships m JOIN groups g ON g.id = m.group_id
          WHERE g.name = 'team ' || ${groups} || '-0') AS athlete`
    return {
      sessionId: first!.session as SessionId,
      athleteId: first!.athlete as AthleteId,
      groupId: first!.group as GroupId
    }
  })

const from = "2032-01-01T00:00:00" as LocalDateTime
const until = "2033-01-01T00:00:00" as LocalDateTime
const today = "2032-01-01" as CalendarDate

onEachDatabase("Invitation query counts (issue 41)", (it) => {
  it.effect("who is invited, an athlete's sessions and a group's roster are one statement each, for a small club and a larger one", () =>
    Effect.gen(function*() {
      const invitations = yield* InvitationRepository
      const groups = yield* GroupRepository
      const small = yield* seedClub(2, 3, 4)
      const smallInvited = yield* countStatements(invitations.invited(small.sessionId, today, null, 50))
      const smallSessions = yield* countStatements(invitations.sessionsOf(small.athleteId, from, until, undefined, 50))
      const large = yield* seedClub(20, 100, 30)
      const largeInvited = yield* countStatements(invitations.invited(large.sessionId, today, null, 50))
      const largeSessions = yield* countStatements(invitations.sessionsOf(large.athleteId, from, until, undefined, 50))
      const smallRoster = yield* countStatements(groups.roster(small.groupId, today, { after: 0, limit: 50 }))
      const largeRoster = yield* countStatements(groups.roster(large.groupId, today, { after: 0, limit: 50 }))
      expect(Option.getOrThrow(smallRoster.result)).toHaveLength(3)
      // On 2032-01-01 only the first memberships have begun: a page of the group's 100.
      expect(Option.getOrThrow(largeRoster.result)).toHaveLength(50)
      expect(Option.getOrThrow(smallInvited.result)).toHaveLength(3)
      // A page, whatever the group's size.
      expect(Option.getOrThrow(largeInvited.result)).toHaveLength(50)
      expect(smallSessions.result.length).toBeGreaterThan(0)
      expect(largeSessions.result).toHaveLength(50)
      expect(
        [smallInvited, smallSessions, largeInvited, largeSessions, smallRoster, largeRoster].map((c) =>
          c.statements.length
        )
      ).toEqual([1, 1, 1, 1, 1, 1])
    }))
})
