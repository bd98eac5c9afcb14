/**
 * The SQL the project runs for the benchmarked endpoints (packages/postgres-adapter/src/repositories),
 * statement for statement, so that the baseline measures everything but the framework around it.
 * The athlete's sessions are sent unprepared, as the project sends them (docs/DECISIONS.md,
 * "Statements on PostgreSQL"). The writes are what a careful engineer would hand-write (issue 38,
 * item 7): the fewest statements that keep the project's guarantees, a session write's domain
 * event and webhook deliveries committed with it among them (decision 0317). The foreign keys check the
 * references in the write itself (a violation rolls the statement back: the endpoint's refusal),
 * a write that is one statement runs alone (a statement is its own transaction), and a write of
 * several statements is one transaction whose first statement locks what the others change.
 */

export const selectSessions = `SELECT s.id, s.name, s.is_recurrent AS "isRecurrent",
      to_char(s.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau, s.duree, s.groupe, s.coach_id AS "coachId",
      ARRAY(SELECT sa.athlete_id FROM session_athletes sa WHERE sa.session_id = s.id ORDER BY sa.athlete_id) AS "athleteIds",
      ARRAY(SELECT a.id FROM activities a WHERE a.session_id = s.id ORDER BY a.id) AS "activiteIds"
      FROM sessions s`

/**
 * The project's read of sessions by id, for the ids of every read waiting in one turn of its event
 * loop (docs/DECISIONS.md, "Reads by id of concurrent requests are one statement"); the baseline,
 * a plain client, sends it for each request's one id.
 */
export const sessionsById = `${selectSessions} WHERE s.id = ANY($1::bigint[])`
export const allSessions = `${selectSessions} ORDER BY s.id`

/**
 * An athlete's sessions and a session's activities are gathered by the project too, for the
 * athletes (sessions) asked in one turn: the baseline sends the same statements with its one id.
 */
export const sessionsOfAthleteBetween = `SELECT sa.athlete_id AS "of", s.id, s.name FROM sessions s
          JOIN session_athletes sa ON sa.session_id = s.id
          WHERE (sa.athlete_id = ANY($1::bigint[]) AND s.creneau > $2 AND s.creneau < $3) ORDER BY s.id`

/** SessionRepository.summariesOfAthlete without a range: one condition, so no parentheses. */
export const sessionsOfAthlete = `SELECT sa.athlete_id AS "of", s.id, s.name FROM sessions s
          JOIN session_athletes sa ON sa.session_id = s.id
          WHERE sa.athlete_id = ANY($1::bigint[]) ORDER BY s.id`

export const sessionsOfAthleteAfter = `SELECT sa.athlete_id AS "of", s.id, s.name FROM sessions s
          JOIN session_athletes sa ON sa.session_id = s.id
          WHERE (sa.athlete_id = ANY($1::bigint[]) AND s.creneau > $2) ORDER BY s.id`

export const activitiesOfSession =
  `SELECT session_id AS "of", id, name FROM activities WHERE session_id = ANY($1::bigint[]) ORDER BY id`
export const allAthletes = `SELECT id, name, categorie, niveau FROM athletes ORDER BY id`
export const allCoaches = `SELECT id, name FROM "coaches" ORDER BY id`
export const allUsers =
  `SELECT id, name, email, role, coach_id AS "coachId", athlete_id AS "athleteId", admin_id AS "adminId" FROM users ORDER BY id`

/**
 * A session event's outbox row and its delivery to every webhook registered, the guarantee the
 * project keeps (docs/decisions/0317): a session write commits its domain event and its deliveries
 * with it. `source` is a WITH item of `(id)`, the session; `$data` the event's payload, built by the
 * server as the project's core builds it. The webhooks are read `FOR KEY SHARE`, as the project
 * reads them, so that a webhook removed meanwhile cannot fail the write on the foreign key.
 */
const eventOf = (type: string, source: string, data: string) =>
  `event AS (INSERT INTO attendance_events (session_id, type, data)
    SELECT ${source}.id, '${type}', ${data}::jsonb FROM ${source} RETURNING id, session_id),
  delivered AS (INSERT INTO webhook_deliveries (webhook_id, event_id, session_id)
    SELECT w.id, event.id, event.session_id FROM event CROSS JOIN webhooks w FOR KEY SHARE OF w)`

/**
 * POST /session/create in one statement: the session, its athletes, its `sessionCreated` event
 * ($8, the payload) with its deliveries, and the session as written (the WITH's reads see the
 * tables as they were before it, so the athletes are answered from the input: ascending, without
 * repeats, as the project answers them). An unknown coach or athlete violates a foreign key, and
 * nothing is kept.
 */
export const createSession = `WITH written AS (
    INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id) VALUES ($1, $2, $3, $4, $5, $6)
    RETURNING *),
  added AS (INSERT INTO session_athletes (session_id, athlete_id)
    SELECT written.id, athlete_id FROM written, unnest($7::bigint[]) AS athlete_id ON CONFLICT DO NOTHING),
  ${eventOf("sessionCreated", "written", "$8")}
  SELECT s.id, s.name, s.is_recurrent AS "isRecurrent",
    to_char(s.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau, s.duree, s.groupe, s.coach_id AS "coachId",
    ARRAY(SELECT DISTINCT x FROM unnest($7::bigint[]) AS x ORDER BY x) AS "athleteIds",
    '{}'::bigint[] AS "activiteIds"
  FROM written s`

/**
 * PUT /session/update/{id}, first statement: the session's row locked (its read `FOR UPDATE`) and
 * updated (no row: 404), so that the second statement, which reads after the lock, replaces what
 * the last writer left; it answers what the event tells, the duree before the update included.
 */
export const updateSession = `UPDATE sessions s SET duree = COALESCE($1, before.duree)
  FROM (SELECT id, duree FROM sessions WHERE id = $2 FOR UPDATE) before
  WHERE s.id = before.id
  RETURNING s.name, to_char(s.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau, s.duree::float8 AS duree,
    s.series_id::float8 AS "seriesId", before.duree::float8 AS "previousDuree"`

/**
 * Then its athletes replaced, and its `sessionChanged` event ($3, the payload) with its deliveries,
 * in one statement; an unknown athlete violates a foreign key.
 */
export const replaceAthletes = `WITH changed AS (SELECT $1::bigint AS id),
  removed AS (DELETE FROM session_athletes
    WHERE session_id = $1 AND NOT (athlete_id = ANY($2::bigint[]))),
  added AS (INSERT INTO session_athletes (session_id, athlete_id)
    SELECT $1, athlete_id FROM unnest($2::bigint[]) AS athlete_id ON CONFLICT DO NOTHING),
  ${eventOf("sessionChanged", "changed", "$3")}
  SELECT 1`

/** The update without athletes: its event only, as the second statement. */
export const sessionChangedEvent = `WITH changed AS (SELECT $1::bigint AS id),
  ${eventOf("sessionChanged", "changed", "$2")}
  SELECT 1`

/**
 * POST /activite/create in one statement: the activity, its `activityCreated` event (the payload
 * core builds: the activity's id, name, theme and duree) with its deliveries, as the project keeps
 * them (docs/decisions/0318); an unknown session violates the foreign key, and nothing is kept.
 */
export const insertActivity = `WITH written AS (
    INSERT INTO activities ("name","theme","duree","data_activite","session_id") VALUES ($1,$2,$3,$4,$5)
    RETURNING id, name, theme, duree, session_id),
  event AS (INSERT INTO attendance_events (session_id, type, data)
    SELECT written.session_id, 'activityCreated',
      jsonb_build_object('activityId', written.id, 'name', written.name, 'theme', written.theme, 'duree', written.duree)
    FROM written RETURNING id, session_id),
  delivered AS (INSERT INTO webhook_deliveries (webhook_id, event_id, session_id)
    SELECT w.id, event.id, event.session_id FROM event CROSS JOIN webhooks w FOR KEY SHARE OF w)
  SELECT 1`

const waitAfter = (t: string, free: string) =>
  `CASE WHEN ${t}.failures < ${free} THEN 0
            ELSE (SELECT delays[least(${t}.failures - ${free}, cardinality(delays) - 1) + 1] FROM schedule) END`
/** $1 delays (bigint[]), $2 keys (text[], sorted), $3 their free failures (int[]), $4 now, $5 forget before. */
export const admitLogin = `WITH schedule AS (SELECT $1::bigint[] AS delays),
          requested AS (SELECT key, free FROM unnest($2::text[], $3::int[]) AS requested(key, free)),
          waiting AS (
            SELECT t.last_failure_at_ms + ${waitAfter("t", "r.free")} - $4 AS wait_ms
            FROM requested r JOIN login_throttle t USING (key)
            WHERE t.last_failure_at_ms >= $5
          ),
          counted AS (
            INSERT INTO login_throttle AS t (key, failures, last_failure_at_ms)
            SELECT key, 1, $4 FROM requested WHERE NOT EXISTS (SELECT 1 FROM waiting WHERE wait_ms > 0)
            ORDER BY key
            ON CONFLICT (key) DO UPDATE SET
              failures = CASE WHEN t.last_failure_at_ms < $5 THEN 1 ELSE t.failures + 1 END,
              last_failure_at_ms = $4
            WHERE t.last_failure_at_ms < $5
              OR t.last_failure_at_ms + ${
  waitAfter("t", "(SELECT free FROM requested WHERE requested.key = t.key)")
} <= $4
            RETURNING t.key
          )
          SELECT (SELECT count(*) FROM counted)::int AS admitted,
            (SELECT max(wait_ms) FROM waiting WHERE wait_ms > 0) AS "waitMs"`
export const credentialsByName = `SELECT id, name, email, role, coach_id AS "coachId", athlete_id AS "athleteId",
  admin_id AS "adminId", password_hash AS "passwordHash", tokens_valid_after AS "tokensValidAfter"
  FROM users WHERE name = $1`
/** $1 both keys (sorted), $2 the cleared ones, $3 the released ones. */
export const loginSucceeded = `WITH locked AS (
            SELECT key, failures FROM login_throttle WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE
          ),
          deleted AS (
            DELETE FROM login_throttle t USING locked l
            WHERE t.key = l.key AND (l.key = ANY($2::text[]) OR l.failures <= 1)
          )
          UPDATE login_throttle t SET failures = l.failures - 1 FROM locked l
          WHERE t.key = l.key AND l.key = ANY($3::text[]) AND NOT (l.key = ANY($2::text[]))
            AND l.failures > 1`

export const listTasks = `SELECT id, title, description, created_at AS "createdAt" FROM tasks ORDER BY insertion_order`
/** The project's statement for the creates of one turn, with the one create a request makes. */
export const createTask = `INSERT INTO tasks (title, description)
        SELECT title, description FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(title, description, n) ORDER BY n
        RETURNING id, title, description, created_at AS "createdAt", insertion_order AS "order"`

/**
 * Issue 41's reads at a federation's size (the membership phase). Each is the project's statement
 * as its tagged template compiles it, text and parameter order alike, copied from
 * packages/postgres-adapter/src/membership/: it must follow the project's statement whenever that
 * changes (the phase checks that both servers answer the same; the texts are the same by copy).
 */

/**
 * InvitationRepositoryLive's `invited`: $1 the club's today (for a session without a creneau),
 * $2 and $3 the session, $4 and $6 the athlete after which the page starts (0: the first page),
 * $5, $7 and $8 the page's length + 1.
 */
export const invitedToSession = `WITH s AS (
            SELECT id, groupe, COALESCE(creneau::date, $1::date) AS day FROM sessions WHERE id = $2),
          g AS (SELECT g.id, g.name FROM groups g JOIN s ON g.name = s.groupe),
          own AS (SELECT athlete_id FROM session_athletes
            WHERE session_id = $3 AND athlete_id > $4
            ORDER BY athlete_id LIMIT $5),
          members AS (SELECT m.athlete_id FROM memberships m JOIN g ON m.group_id = g.id, s
            WHERE m.from_date <= s.day AND (m.until_date IS NULL OR m.until_date >= s.day)
              AND m.athlete_id > $6
            ORDER BY m.athlete_id LIMIT $7),
          merged AS (
            SELECT athlete_id, bool_or(own) AS own, bool_or(NOT own) AS member FROM (
              SELECT athlete_id, true AS own FROM own UNION ALL SELECT athlete_id, false FROM members) both_sides
            GROUP BY athlete_id ORDER BY athlete_id LIMIT $8)
          SELECT EXISTS (SELECT 1 FROM s) AS found,
            COALESCE((SELECT json_agg(json_build_object('athleteId', m.athlete_id,
                'how', CASE WHEN m.own THEN 'athlete' ELSE 'member' END,
                'groupId', CASE WHEN m.member THEN g.id END, 'groupName', CASE WHEN m.member THEN g.name END)
              ORDER BY m.athlete_id)
              FROM merged m LEFT JOIN g ON true), '[]'::json) AS items`

/**
 * InvitationRepositoryLive's `sessionsOf`: $1 and $8 the athlete, $2 and $6 the period's first
 * instant, $3 and $7 the instant after it, $4, $5, $9 and $10 the position after which the page
 * starts (the period's start and 0: the first page), $11 the page's length + 1. Sent unprepared,
 * as the project sends it.
 */
export const sessionsOfInvitedAthlete = `WITH own AS (
            SELECT sa.session_id AS id FROM session_athletes sa JOIN sessions s ON s.id = sa.session_id
            WHERE sa.athlete_id = $1 AND s.creneau >= $2::timestamp AND s.creneau < $3::timestamp
              AND (s.creneau, s.id) > ($4::timestamp, $5::bigint)),
          members AS (
            SELECT s.id FROM memberships m JOIN groups g ON g.id = m.group_id
              JOIN sessions s ON s.groupe = g.name
                AND s.creneau >= GREATEST($6::timestamp, m.from_date::timestamp)
                AND s.creneau < LEAST($7::timestamp, (m.until_date + 1)::timestamp)
            WHERE m.athlete_id = $8 AND (s.creneau, s.id) > ($9::timestamp, $10::bigint)),
          chosen AS (
            SELECT id, bool_or(own) AS own FROM (
              SELECT id, true AS own FROM own UNION ALL SELECT id, false FROM members) both_sides
            GROUP BY id)
          SELECT s.id::float8 AS "sessionId", s.name, to_char(s.creneau, 'YYYY-MM-DD"T"HH24:MI:SS') AS creneau,
            s.groupe, s.coach_id::float8 AS "coachId", CASE WHEN c.own THEN 'athlete' ELSE 'member' END AS how
          FROM chosen c JOIN sessions s ON s.id = c.id
          ORDER BY s.creneau, s.id LIMIT $11`

/**
 * GroupRepositoryLive's `roster` (its `pageWhere` with the group's condition): $1, $2 and $3 the
 * group, $4 the day, $5 the membership after which the page starts (0: the first page), $6 the
 * page's length + 1.
 */
export const rosterOnDay = `SELECT
          EXISTS (SELECT 1 FROM "groups" WHERE id = $1) AS known,
          COALESCE((SELECT json_agg(row_to_json(p) ORDER BY p.id) FROM (
            SELECT m.id::float8 AS id, m.group_id::float8 AS "groupId", m.athlete_id::float8 AS "athleteId",
  to_char(m.from_date, 'YYYY-MM-DD') AS "from", to_char(m.until_date, 'YYYY-MM-DD') AS until FROM memberships m WHERE int8range(m.group_id, m.group_id, '[]') && int8range($2, $3, '[]')
            AND daterange(m.from_date, m.until_date, '[]') @> $4::date AND m.id > $5
            ORDER BY m.id LIMIT $6) p), '[]'::json) AS items`
