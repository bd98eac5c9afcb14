import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"

/**
 * Every athlete the session `sessionId` (an SQL expression, for a `LATERAL` join) invites, as rows
 * `(athlete_id)`: its own athletes and its group's members on its day (docs/membership.md), the day
 * of a session without a `creneau` being the database's, as `session_athletes_leave` reads it. The
 * whole set, unpaged: a session's athletes and a group's members are bounded by the club's own bounds
 * (the invitation repository pages the same set for its readers).
 */
export const invitedAthletes = (sql: SqlClient, sessionId: Fragment) =>
  sql`SELECT sa.athlete_id FROM session_athletes sa WHERE sa.session_id = ${sessionId}
    UNION
    SELECT m.athlete_id FROM sessions s
      CROSS JOIN LATERAL (${groupMembersOn(sql, sql`s.groupe`, sql`COALESCE(s.creneau::date, current_date)`)}) m
    WHERE s.id = ${sessionId}`

/**
 * The members of the group named `groupName` on the day `day` (SQL expressions), as rows
 * `(athlete_id)`: both days of a membership included (docs/membership.md).
 */
export const groupMembersOn = (sql: SqlClient, groupName: Fragment, day: Fragment) =>
  sql`SELECT m.athlete_id FROM groups g JOIN memberships m ON m.group_id = g.id
    WHERE g.name = ${groupName} AND m.from_date <= ${day} AND (m.until_date IS NULL OR m.until_date >= ${day})`
