import {
  type AthleteId,
  type CalendarDate,
  InvitationRepository,
  InvitedAthlete,
  InvitedSession,
  type LocalDateTime,
  type SessionId,
  type SessionPosition,
  traced
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"

const decodeInvited = Schema.decodeUnknownEffect(Schema.Array(InvitedAthlete))
const decodeSessions = Schema.decodeUnknownEffect(Schema.Array(InvitedSession))

/** `InvitationRepository` on PostgreSQL: each read one statement (docs/membership.md "Scale"). */
export const InvitationRepositoryLive = Layer.effect(
  InvitationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // The walk up the tree is bounded by its depth; a cycle, which moves never make, stops at 1000.
    const groupCoachIds = traced("InvitationRepository.groupCoachIds")(function*(groupe: string | null) {
      if (groupe === null) return []
      const rows = yield* sql<{ coach_id: number }>`WITH RECURSIVE up AS (
          SELECT g.id, g.parent_id, 1 AS depth FROM groups g WHERE g.name = ${groupe}
          UNION ALL
          SELECT p.id, p.parent_id, up.depth + 1 FROM groups p JOIN up ON p.id = up.parent_id WHERE up.depth < 1000)
        SELECT c.coach_id::float8 AS coach_id FROM up JOIN group_coaches c ON c.group_id = up.id
        GROUP BY c.coach_id ORDER BY min(up.depth), c.coach_id`
      return rows.map((row) => Number(row.coach_id))
    }, dieOnInfrastructureError)

    /**
     * The session's own athletes and its group's members on its day, each side cut to the page
     * before they are merged (both in athlete order: the primary key of `session_athletes`,
     * `memberships_group_idx`), so the statement reads at most two pages whatever the group's size.
     */
    const invited = traced("InvitationRepository.invited")(
      function*(sessionId: SessionId, today: CalendarDate, after: AthleteId | null, limit: number) {
        const [row] = yield* sql<{ found: boolean; items: unknown }>`WITH s AS (
            SELECT id, groupe, COALESCE(creneau::date, ${today}::date) AS day FROM sessions WHERE id = ${sessionId}),
          g AS (SELECT g.id, g.name FROM groups g JOIN s ON g.name = s.groupe),
          own AS (SELECT athlete_id FROM session_athletes
            WHERE session_id = ${sessionId} AND athlete_id > ${after ?? 0}
            ORDER BY athlete_id LIMIT ${limit}),
          members AS (SELECT m.athlete_id FROM memberships m JOIN g ON m.group_id = g.id, s
            WHERE m.from_date <= s.day AND (m.until_date IS NULL OR m.until_date >= s.day)
              AND m.athlete_id > ${after ?? 0}
            ORDER BY m.athlete_id LIMIT ${limit}),
          merged AS (
            SELECT athlete_id, bool_or(own) AS own, bool_or(NOT own) AS member FROM (
              SELECT athlete_id, true AS own FROM own UNION ALL SELECT athlete_id, false FROM members) both_sides
            GROUP BY athlete_id ORDER BY athlete_id LIMIT ${limit})
          SELECT EXISTS (SELECT 1 FROM s) AS found,
            COALESCE((SELECT json_agg(json_build_object('athleteId', m.athlete_id,
                'how', CASE WHEN m.own THEN 'athlete' ELSE 'member' END,
                'groupId', CASE WHEN m.member THEN g.id END, 'groupName', CASE WHEN m.member THEN g.name END)
              ORDER BY m.athlete_id)
              FROM merged m LEFT JOIN g ON true), '[]'::json) AS items`
        if (row === undefined || !row.found) return Option.none()
        return Option.some(yield* Effect.orDie(decodeInvited(row.items)))
      },
      dieOnInfrastructureError
    )

    /**
     * The athlete's own sessions of the period (`session_athletes_athlete_id_idx`) and those of the
     * groups it is a member of, each membership's days cut to the period (`sessions_groupe_idx`).
     * Sent unprepared (docs/decisions/0129): a range on `creneau` decides the join, and the generic
     * plan PostgreSQL kept after five calls hashed every session of the period to find the
     * athlete's own (the bench's federation: 30,000 sessions walked for a dozen, about 25 ms).
     */
    const sessionsOf = traced("InvitationRepository.sessionsOf")(
      function*(
        athleteId: AthleteId,
        from: LocalDateTime,
        until: LocalDateTime,
        after: SessionPosition | undefined,
        limit: number
      ) {
        const start = after?.creneau ?? from
        const afterId = after?.id ?? 0
        const rows = yield* sql`WITH own AS (
            SELECT sa.session_id AS id FROM session_athletes sa JOIN sessions s ON s.id = sa.session_id
            WHERE sa.athlete_id = ${athleteId} AND s.creneau >= ${from}::timestamp AND s.creneau < ${until}::timestamp
              AND (s.creneau, s.id) > (${start}::timestamp, ${afterId}::bigint)),
          members AS (
            SELECT s.id FROM memberships m JOIN groups g ON g.id = m.group_id
              JOIN sessions s ON s.groupe = g.name
                AND s.creneau >= GREATEST(${from}::timestamp, m.from_date::timestamp)
                AND s.creneau < LEAST(${until}::timestamp, (m.until_date + 1)::timestamp)
            WHERE m.athlete_id = ${athleteId} AND (s.creneau, s.id) > (${start}::timestamp, ${afterId}::bigint)),
          chosen AS (
            SELECT id, bool_or(own) AS own FROM (
              SELECT id, true AS own FROM own UNION ALL SELECT id, false FROM members) both_sides
            GROUP BY id)
          SELECT s.id::float8 AS "sessionId", s.name, to_char(s.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau,
            s.groupe, s.coach_id::float8 AS "coachId", CASE WHEN c.own THEN 'athlete' ELSE 'member' END AS how
          FROM chosen c JOIN sessions s ON s.id = c.id
          ORDER BY s.creneau, s.id LIMIT ${limit}`.unprepared
        return yield* Effect.orDie(decodeSessions(rows))
      },
      dieOnInfrastructureError
    )

    return InvitationRepository.of({ groupCoachIds, invited, sessionsOf })
  })
)
