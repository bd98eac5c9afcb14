import {
  AthleteAttendance,
  type AthleteId,
  attendanceRate,
  AttendanceRepository,
  GroupAttendance,
  type LocalDateTime,
  type NewEvent,
  notMembers,
  PresenceLine,
  type PresenceMark,
  SessionPresence,
  type UserId,
  type AttendanceSettings,
  EntityNotFound,
  InvalidValue,
  RepliesClosed,
  Reply,
  type ReplyWrite,
  SessionReplies,
  type SessionId,
  ScheduleSettings,
  traced,
  wallClockAt
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { int8Array } from "../shared/int8Array.ts"
import { writeEvents } from "../webhooks/outbox.ts"
import { transaction } from "../shared/transaction.ts"

const local = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS')`

/** The place of a waiting reply `r` on its session's list: how many waiting yeses are not later than its own. */
const waitingPosition = `CASE WHEN r.state = 'waiting' THEN (SELECT count(*)::int FROM session_replies w
  WHERE w.session_id = r.session_id AND w.state = 'waiting' AND w.yes_order <= r.yes_order) END`

const replyJson = `json_build_object('sessionId', r.session_id, 'athleteId', r.athlete_id, 'answer', r.answer,
  'reason', r.reason, 'state', r.state, 'waitingPosition', r.position)`

/** The rank of a state in `SessionReplies`' order. */
const stateRank = `CASE r.state WHEN 'confirmed' THEN 0 WHEN 'waiting' THEN 1 WHEN 'maybe' THEN 2 ELSE 3 END`

/** A session's replies as one JSON value, built by the database in one statement. */
const sessionRepliesJson = `json_build_object(
  'sessionId', s.id, 'capacity', a.capacity, 'replyCutoff', ${local("a.reply_cutoff")},
  'confirmed', (SELECT count(*) FROM session_replies c WHERE c.session_id = s.id AND c.state = 'confirmed'),
  'waiting', (SELECT count(*) FROM session_replies c WHERE c.session_id = s.id AND c.state = 'waiting'),
  'replies', COALESCE((
    SELECT json_agg(${replyJson} ORDER BY ${stateRank}, r.yes_order, r.athlete_id)
    FROM (SELECT r.*, CASE WHEN r.state = 'waiting'
            THEN row_number() OVER (PARTITION BY r.state ORDER BY r.yes_order) END AS position
          FROM session_replies r WHERE r.session_id = s.id) r), '[]'::json)
) AS replies`

const instant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A session's marks and their history as one JSON value, built by the database in one statement. */
const sessionPresenceJson = `json_build_object(
  'sessionId', s.id,
  'marks', COALESCE((SELECT json_agg(json_build_object('athleteId', m.athlete_id, 'status', m.status,
      'markedBy', m.marked_by, 'markedAt', ${instant("m.marked_at")}) ORDER BY m.athlete_id)
    FROM attendance_marks m WHERE m.session_id = s.id), '[]'::json),
  'history', COALESCE((SELECT json_agg(json_build_object('athleteId', h.athlete_id, 'status', h.status,
      'previousStatus', h.previous_status, 'changedBy', h.changed_by, 'changedAt', ${
  instant("h.changed_at")
}) ORDER BY h.id)
    FROM attendance_mark_history h WHERE h.session_id = s.id), '[]'::json)
) AS presence`

/** Counts of each status among the rows of `marks`, as JSON fields. */
const countsJson =
  `'present', count(*) FILTER (WHERE status = 'present'), 'late', count(*) FILTER (WHERE status = 'late'),
  'absent', count(*) FILTER (WHERE status = 'absent'), 'excused', count(*) FILTER (WHERE status = 'excused')`

interface Counts {
  readonly present: number
  readonly late: number
  readonly absent: number
  readonly excused: number
}

const withRate = <A extends Counts>(counts: A) => ({ ...counts, rate: attendanceRate(counts) })

const decodeSessionPresence = Schema.decodeUnknownEffect(SessionPresence)
const decodeLines = Schema.decodeUnknownEffect(Schema.Array(PresenceLine))
const decodeSessionReplies = Schema.decodeUnknownEffect(SessionReplies)
const decodeReplies = Schema.decodeUnknownEffect(Schema.Array(Reply))

/** A session locked for a change of its replies, with what decides whether a reply may be written. */
interface LockedSession {
  readonly id: number
  readonly capacity: number | null
  readonly closes: string | null
  readonly closed: boolean
  readonly member: boolean
}

export const AttendanceRepositoryLive = Layer.effect(
  AttendanceRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Whether the athlete (a SQL expression) is invited to the session \`s\`: one of its athletes,
     * or a member of its group on its day (migration 0027's function), the day of a session without
     * a creneau being \`today\` (the club's day, which the caller knows).
     */
    const invitedTo = (athlete: ReturnType<typeof sql.literal>, today: string) =>
      sql`(EXISTS (SELECT 1 FROM session_athletes m WHERE m.session_id = s.id AND m.athlete_id = ${athlete})
        OR invited_by_membership(s.groupe, COALESCE(s.creneau::date, ${today}::date), ${athlete}))`

    const readReplies = (sessionId: number) =>
      Effect.flatMap(
        sql<{ replies: unknown }>`SELECT ${sql.literal(sessionRepliesJson)}
          FROM sessions s LEFT JOIN session_attendance a ON a.session_id = s.id WHERE s.id = ${sessionId}`,
        (rows) =>
          rows.length === 0
            ? Effect.succeed(Option.none<SessionReplies>())
            : Effect.map(Effect.orDie(decodeSessionReplies(rows[0]!.replies)), Option.some)
      )

    /**
     * Confirms the first waiting of the session, in yes order, while its capacity has places (all
     * of them when it has none: LIMIT NULL is no limit). Run after every change, under the session's lock, so that a place
     * never stays free while someone waits.
     */
    const fill = (sessionId: number) =>
      sql<{ athlete_id: number }>`UPDATE session_replies r SET state = 'confirmed'
        FROM (
          SELECT w.athlete_id FROM session_replies w
          WHERE w.session_id = ${sessionId} AND w.state = 'waiting'
          ORDER BY w.yes_order
          LIMIT (SELECT CASE WHEN a.capacity IS NOT NULL THEN GREATEST(a.capacity - (SELECT count(*) FROM session_replies c
                   WHERE c.session_id = ${sessionId} AND c.state = 'confirmed'), 0) END
                 FROM (SELECT 1) one LEFT JOIN session_attendance a ON a.session_id = ${sessionId})
        ) promoted
        WHERE r.session_id = ${sessionId} AND r.athlete_id = promoted.athlete_id
        RETURNING r.athlete_id::float8 AS athlete_id`.pipe(
        Effect.map((rows) =>
          rows.map((row): NewEvent => ({ sessionId, type: "promotion", data: { athleteId: Number(row.athlete_id) } }))
        )
      )

    /**
     * Locks the sessions a reply writes (the session; with `following`, also its series' later
     * occurrences), in id order so that two writers locking overlapping sets never deadlock. The
     * lock (`FOR NO KEY UPDATE`) serialises every change of one session's replies, across
     * instances, without blocking the inserts that reference the session (memberships, activities).
     */
    const lockTargets = (write: ReplyWrite) =>
      sql<LockedSession>`SELECT s.id::float8 AS id, a.capacity,
          ${sql.literal(local("COALESCE(a.reply_cutoff, s.creneau)"))} AS closes,
          COALESCE(COALESCE(a.reply_cutoff, s.creneau) <= ${write.now}::timestamp, false) AS closed,
          ${invitedTo(sql.literal(`${Number(write.athleteId)}::bigint`), write.now.slice(0, 10))} AS member
        FROM sessions s LEFT JOIN session_attendance a ON a.session_id = s.id
        WHERE s.id = ${write.sessionId}
          ${
        write.scope === "following"
          ? sql`OR s.id IN (SELECT later.id FROM sessions first JOIN sessions later
                ON later.series_id = first.series_id AND later.occurrence_start > first.occurrence_start
                WHERE first.id = ${write.sessionId})`
          : sql``
      }
        ORDER BY s.id
        FOR NO KEY UPDATE OF s`

    /** Writes the athlete's reply to one locked session; a yes repeated keeps its number, and so its place. */
    const upsert = (write: ReplyWrite, session: LockedSession) =>
      sql`WITH previous AS (
          SELECT answer, state, yes_order FROM session_replies
          WHERE session_id = ${session.id} AND athlete_id = ${write.athleteId}),
        taken AS (
          SELECT count(*) AS confirmed FROM session_replies
          WHERE session_id = ${session.id} AND state = 'confirmed' AND athlete_id <> ${write.athleteId})
        INSERT INTO session_replies AS r (session_id, athlete_id, answer, reason, state, yes_order, replied_by, replied_at)
        SELECT ${session.id}, ${write.athleteId}, ${write.input.answer}, ${write.input.reason},
          CASE ${write.input.answer}::text
            WHEN 'no' THEN 'declined'
            WHEN 'maybe' THEN 'maybe'
            ELSE CASE WHEN p.answer = 'yes' THEN p.state
                      WHEN ${session.capacity}::int IS NULL OR t.confirmed < ${session.capacity}::int THEN 'confirmed'
                      ELSE 'waiting' END
          END,
          CASE WHEN ${write.input.answer}::text = 'yes'
            THEN COALESCE(CASE WHEN p.answer = 'yes' THEN p.yes_order END, nextval('reply_order')) END,
          ${write.by}, now()
        FROM taken t LEFT JOIN previous p ON true
        ON CONFLICT (session_id, athlete_id) DO UPDATE SET answer = EXCLUDED.answer, reason = EXCLUDED.reason,
          state = EXCLUDED.state, yes_order = EXCLUDED.yes_order, replied_by = EXCLUDED.replied_by,
          replied_at = EXCLUDED.replied_at
        RETURNING (SELECT answer FROM previous) AS previous_answer`.pipe(
        Effect.map((rows) => (rows[0] as { previous_answer: string | null } | undefined)?.previous_answer ?? null)
      )

    const reply = traced("AttendanceRepository.reply")(function*(write: ReplyWrite) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const locked = yield* lockTargets(write)
        const first = locked.find((session) => session.id === write.sessionId)
        if (first === undefined) return yield* new EntityNotFound({ entity: "Session", id: write.sessionId })
        if (first.closed) return yield* new RepliesClosed({ sessionId: write.sessionId, closedAt: first.closes! })
        if (!first.member) {
          return yield* new InvalidValue({
            field: "athleteId",
            reason: `athlete ${write.athleteId} is not an athlete of session ${write.sessionId}`
          })
        }
        const targets = [first, ...locked.filter((s) => s !== first && s.member && !s.closed)]
        const changes: Array<{ readonly withdrawn: boolean; readonly promotions: ReadonlyArray<NewEvent> }> = []
        for (const session of targets) {
          const previousAnswer = yield* upsert(write, session)
          const promotions = yield* fill(session.id)
          changes.push({ withdrawn: previousAnswer === "yes" && write.input.answer !== "yes", promotions })
        }
        const ids = targets.map((session) => session.id)
        const rows = yield* sql<{ replies: unknown }>`SELECT COALESCE(json_agg(${sql.literal(replyJson)}
            ORDER BY array_position(${int8Array(ids)}::bigint[], r.session_id)), '[]'::json) AS replies
          FROM (SELECT r.*, ${sql.literal(waitingPosition)} AS position FROM session_replies r
                WHERE r.athlete_id = ${write.athleteId} AND r.session_id = ANY(${int8Array(ids)}::bigint[])) r`
        const written = yield* Effect.orDie(decodeReplies(rows[0]!.replies))
        yield* writeEvents(
          sql,
          written.flatMap((reply, i): ReadonlyArray<NewEvent> => [{
            sessionId: reply.sessionId,
            type: changes[i]!.withdrawn ? "cancellation" : "reply",
            data: { athleteId: reply.athleteId, answer: reply.answer, reason: reply.reason, state: reply.state }
          }, ...changes[i]!.promotions])
        )
        return written
      }))
    }, dieOnInfrastructureError)

    const configure = traced("AttendanceRepository.configure")(
      function*(sessionId: SessionId, settings: AttendanceSettings) {
        return yield* transaction(sql)(Effect.gen(function*() {
          const locked = yield* sql`SELECT id FROM sessions WHERE id = ${sessionId} FOR NO KEY UPDATE`
          if (locked.length === 0) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
          const setsCapacity = settings.capacity !== undefined
          const setsCutoff = settings.replyCutoff !== undefined
          yield* sql`INSERT INTO session_attendance AS a (session_id, capacity, reply_cutoff)
            VALUES (${sessionId}, ${settings.capacity ?? null}::int, ${settings.replyCutoff ?? null}::timestamp)
            ON CONFLICT (session_id) DO UPDATE SET
              capacity = CASE WHEN ${setsCapacity} THEN EXCLUDED.capacity ELSE a.capacity END,
              reply_cutoff = CASE WHEN ${setsCutoff} THEN EXCLUDED.reply_cutoff ELSE a.reply_cutoff END`
          yield* writeEvents(sql, yield* fill(sessionId))
          return Option.getOrThrow(yield* readReplies(sessionId))
        }))
      },
      dieOnInfrastructureError
    )

    const replies = traced("AttendanceRepository.replies")(function*(sessionId: SessionId) {
      return yield* readReplies(sessionId)
    }, dieOnInfrastructureError)

    const readPresence = (sessionId: number) =>
      Effect.flatMap(
        sql<{ presence: unknown }>`SELECT ${
          sql.literal(sessionPresenceJson)
        } FROM sessions s WHERE s.id = ${sessionId}`,
        (rows) =>
          rows.length === 0
            ? Effect.succeed(Option.none<SessionPresence>())
            : Effect.map(Effect.orDie(decodeSessionPresence(rows[0]!.presence)), Option.some)
      )

    const presence = traced("AttendanceRepository.presence")(function*(sessionId: SessionId) {
      return yield* readPresence(sessionId)
    }, dieOnInfrastructureError)

    const mark = traced("AttendanceRepository.mark")(
      function*(sessionId: SessionId, marks: ReadonlyArray<PresenceMark>, by: UserId, atEpochMs: number) {
        return yield* transaction(sql)(Effect.gen(function*() {
          const locked = yield* sql`SELECT id FROM sessions WHERE id = ${sessionId} FOR NO KEY UPDATE`
          if (locked.length === 0) return yield* new EntityNotFound({ entity: "Session", id: sessionId })
          const ordered = [...marks].sort((a, b) => a.athleteId - b.athleteId)
          const athleteIds = int8Array(ordered.map((m) => m.athleteId))
          const { timeZone } = yield* ScheduleSettings
          const today = wallClockAt(timeZone, atEpochMs).slice(0, 10)
          const strangers = yield* sql<
            { id: number }
          >`SELECT a.id::float8 AS id FROM sessions s, unnest(${athleteIds}::bigint[]) AS a(id)
            WHERE s.id = ${sessionId} AND NOT ${invitedTo(sql.literal("a.id"), today)}
            ORDER BY a.id`
          if (strangers.length > 0) {
            return yield* new InvalidValue({
              field: "marks",
              reason: notMembers(strangers.map((r) => r.id), sessionId)
            })
          }
          // One statement: the changes go to the history (in athlete order), the marks are replaced.
          const changed = yield* sql<
            { athlete_id: number; status: string; previous_status: string | null }
          >`WITH given AS (
              SELECT * FROM unnest(${athleteIds}::bigint[], ${
            ordered.map((m) => m.status)
          }::text[]) AS g(athlete_id, status)),
            previous AS (
              SELECT m.athlete_id, m.status FROM attendance_marks m
              WHERE m.session_id = ${sessionId} AND m.athlete_id IN (SELECT athlete_id FROM given)),
            changed AS (
              INSERT INTO attendance_mark_history (session_id, athlete_id, status, previous_status, changed_by, changed_at)
              SELECT ${sessionId}, g.athlete_id, g.status, p.status, ${by}, to_timestamp(${atEpochMs}::float8 / 1000)
              FROM given g LEFT JOIN previous p USING (athlete_id)
              WHERE p.status IS DISTINCT FROM g.status
              ORDER BY g.athlete_id
              RETURNING athlete_id, status, previous_status),
            marked AS (
              INSERT INTO attendance_marks AS m (session_id, athlete_id, status, marked_by, marked_at)
              SELECT ${sessionId}, athlete_id, status, ${by}, to_timestamp(${atEpochMs}::float8 / 1000) FROM given
              ON CONFLICT (session_id, athlete_id) DO UPDATE
                SET status = EXCLUDED.status, marked_by = EXCLUDED.marked_by, marked_at = EXCLUDED.marked_at
                WHERE m.status IS DISTINCT FROM EXCLUDED.status)
            SELECT athlete_id::float8 AS athlete_id, status, previous_status FROM changed ORDER BY athlete_id`
          yield* writeEvents(
            sql,
            changed.map((row): NewEvent => ({
              sessionId,
              type: "presence",
              data: { athleteId: Number(row.athlete_id), status: row.status, previousStatus: row.previous_status }
            }))
          )
          return Option.getOrThrow(yield* readPresence(sessionId))
        }))
      },
      dieOnInfrastructureError
    )

    const figures = traced("AttendanceRepository.figures")(
      function*(from: LocalDateTime, until: LocalDateTime, athleteId: AthleteId | null) {
        const [row] = yield* sql<
          {
            figures: {
              athletes: ReadonlyArray<Counts & { athleteId: number }>
              groups: ReadonlyArray<Counts & { groupe: string | null }>
            }
          }
        >`
          WITH marks AS (
            SELECT m.athlete_id, s.groupe, m.status
            FROM sessions s JOIN attendance_marks m ON m.session_id = s.id
            WHERE s.creneau >= ${from}::timestamp AND s.creneau < ${until}::timestamp
              ${athleteId === null ? sql`` : sql`AND m.athlete_id = ${athleteId}`})
          SELECT json_build_object(
            'athletes', COALESCE((SELECT json_agg(per.a ORDER BY per.id) FROM (
              SELECT athlete_id AS id, json_build_object('athleteId', athlete_id, ${sql.literal(countsJson)}) AS a
              FROM marks GROUP BY athlete_id) per), '[]'::json),
            'groups', COALESCE((SELECT json_agg(per.g ORDER BY per.groupe COLLATE "C" NULLS FIRST) FROM (
              SELECT groupe, json_build_object('groupe', groupe, ${sql.literal(countsJson)}) AS g
              FROM marks GROUP BY groupe) per), '[]'::json)
          ) AS figures`
        return yield* Effect.orDie(Effect.all({
          athletes: Schema.decodeUnknownEffect(Schema.Array(AthleteAttendance))(row!.figures.athletes.map(withRate)),
          groups: Schema.decodeUnknownEffect(Schema.Array(GroupAttendance))(row!.figures.groups.map(withRate))
        }))
      },
      dieOnInfrastructureError
    )

    const presenceLines = traced("AttendanceRepository.presenceLines")(
      function*(from: LocalDateTime, until: LocalDateTime) {
        const rows = yield* sql`SELECT s.id::float8 AS "sessionId", ${sql.literal(local("s.creneau"))} AS creneau,
            s.name AS "sessionName", s.groupe, m.athlete_id::float8 AS "athleteId", a.name AS "athleteName", m.status
          FROM sessions s JOIN attendance_marks m ON m.session_id = s.id JOIN athletes a ON a.id = m.athlete_id
          WHERE s.creneau >= ${from}::timestamp AND s.creneau < ${until}::timestamp
          ORDER BY s.creneau, s.id, m.athlete_id`
        return yield* Effect.orDie(decodeLines(rows))
      },
      dieOnInfrastructureError
    )

    return AttendanceRepository.of({ replies, configure, reply, presence, mark, figures, presenceLines })
  })
)
