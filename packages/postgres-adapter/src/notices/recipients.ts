import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"

/**
 * Who is told about the athlete `athleteId` (an SQL expression, for a `LATERAL` join), as rows
 * `(user_id, guardian)`: its own user and every guardian linked to it (docs/notices.md), each only
 * with an email address. `guardian` is 0 for the athlete's own user, 1 for a guardian, so that an
 * ordering on it prefers a user's own athlete when one user is told about two.
 */
export const recipientsOf = (sql: SqlClient, athleteId: Fragment) =>
  sql`SELECT u.id AS user_id, 0 AS guardian FROM users u
      WHERE u.athlete_id = ${athleteId} AND COALESCE(u.email, '') <> ''
    UNION ALL
    SELECT u.id, 1 FROM guardianships gd JOIN users u ON u.id = gd.user_id
      WHERE gd.athlete_id = ${athleteId} AND COALESCE(u.email, '') <> ''`
