import {
  type AthleteId,
  athletePersonNotFound,
  type ErasedPerson,
  PersonDataRepository,
  type PersonExportSection,
  personNotFound,
  type EntityNotFound,
  traced,
  type UserId
} from "@club/core"
import { Effect, Layer, Option, Schema, Stream } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { recordIdIs } from "../audit/AuditRepositoryLive.ts"
import { countFromRow } from "../shared/countRow.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { autocommitWrite, transaction } from "../shared/transaction.ts"
import { CredentialsCache } from "../users/CredentialsCache.ts"
import { writeEvents } from "../webhooks/outbox.ts"

/**
 * Who a person is in the tables: their user's id (null for an athlete no user links, decision 0300),
 * linked records, and the texts that name them.
 */
interface Person {
  readonly userId: number | null
  readonly athleteId: number | null
  readonly coachId: number | null
  readonly adminId: number | null
  /** The user's name, email and the linked records' names: what a stored answer or key may hold. */
  readonly texts: ReadonlyArray<string>
  /**
   * The reasons of the athlete's replies: another caller's stored answer may quote them (a guardian's
   * reply for a child). Read before any batch; the stored answers are erased before the replies and events.
   */
  readonly reasons: ReadonlyArray<string>
}

/** The name an erased person's events carry; their user gets a unique one of its own. */
export const erasedName = "(erased)"

type Rows = Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError>

/**
 * One place that holds a person. `read` answers a page of their rows after the key `after` (each
 * row `{ k, row }`, `k` a bigint ordering the section, `row` the JSON exported: never a secret);
 * `erase` removes or replaces their personal fields in at most `limit` rows, one statement that
 * commits by itself and answers `count` (fewer than `limit`: none is left). Rows another erasure
 * holds are passed over (`SKIP LOCKED`) and taken by a later batch: every batch can run again.
 * A table added later (audit entries) is one more entry here.
 */
interface Holder {
  readonly section: string
  readonly read?: (sql: SqlClient.SqlClient, p: Person, after: bigint, limit: number) => Rows
  readonly erase?: (sql: SqlClient.SqlClient, p: Person, limit: number) => Rows
}

/**
 * A column compared with an id the person may lack: `column = NULL` is never true, so a person
 * without a user (or a coach record, ...) matches no row by it, in a `WHERE` and in a `CASE`.
 */
const id = (n: number | null) => (n === null ? null : BigInt(n))

/**
 * Any of the clauses given for the ids the person has, each between parentheses; none: `FALSE`
 * (never `sql.or`'s `1=1` for an empty list, which would take every row).
 */
const anyOf = (sql: SqlClient.SqlClient, clauses: ReadonlyArray<Statement.Fragment | undefined>) =>
  sql.or(["FALSE", ...clauses.filter((clause) => clause !== undefined).map((clause) => sql`(${clause})`)])

const when = <A>(n: number | null, clause: (n: number) => A): A | undefined => n === null ? undefined : clause(n)

/** An event about the person: theirs by the athlete it names, or the user it tells. */
const aboutPerson = (sql: SqlClient.SqlClient, p: Person) =>
  anyOf(sql, [
    when(p.athleteId, (athlete) => sql`(data->>'athleteId') = ${String(athlete)}`),
    when(p.userId, (user) => sql`(data->>'userId') = ${String(user)}`)
  ])

/**
 * An audit entry about the person: its subject is their user or athlete, its record their coach or
 * admin record, or they made the write.
 */
const auditAbout = (sql: SqlClient.SqlClient, p: Person) =>
  anyOf(sql, [
    when(p.userId, (user) => sql`a.subject_user_id = ${BigInt(user)} OR a.actor_user_id = ${BigInt(user)}`),
    when(p.athleteId, (athlete) => sql`a.subject_athlete_id = ${BigInt(athlete)}`),
    when(
      p.coachId,
      (coach) => sql`a.record_type = 'coaches' AND ${recordIdIs(sql, "a.")} to_jsonb(${BigInt(coach)}::bigint)`
    ),
    when(
      p.adminId,
      (admin) => sql`a.record_type = 'admins' AND ${recordIdIs(sql, "a.")} to_jsonb(${BigInt(admin)}::bigint)`
    )
  ])

/** Every value of an entry's `changes` replaced by `"(erased)"`, its keys kept: what a redaction may write. */
const redactedChanges = (sql: SqlClient.SqlClient) =>
  sql`COALESCE((SELECT jsonb_object_agg(c.key, '"(erased)"'::jsonb) FROM jsonb_each(a.changes) c), '{}'::jsonb)`

export const holders: ReadonlyArray<Holder> = [
  {
    section: "user",
    read: (sql, p, after) =>
      sql`SELECT id::text AS k, to_jsonb(u) - 'password_hash' AS row FROM users u WHERE id = ${
        id(p.userId)
      } AND id > ${after}`
  },
  {
    section: "athlete",
    read: (sql, p, after) =>
      sql`SELECT id::text AS k, to_jsonb(a) AS row FROM athletes a WHERE id = ${id(p.athleteId)} AND id > ${after}`
  },
  {
    section: "coach",
    read: (sql, p, after) =>
      sql`SELECT id::text AS k, to_jsonb(c) AS row FROM coaches c WHERE id = ${id(p.coachId)} AND id > ${after}`
  },
  {
    section: "admin",
    read: (sql, p, after) =>
      sql`SELECT id::text AS k, to_jsonb(a) AS row FROM admins a WHERE id = ${id(p.adminId)} AND id > ${after}`
  },
  {
    section: "memberships",
    read: (sql, p, after, limit) =>
      sql`SELECT m.id::text AS k, to_jsonb(m) || jsonb_build_object('groupName', g.name) AS row
        FROM memberships m JOIN groups g ON g.id = m.group_id
        WHERE m.athlete_id = ${id(p.athleteId)} AND m.id > ${after} ORDER BY m.id LIMIT ${limit}`
  },
  {
    // The athletes this user is the guardian of; the guardians of their own athlete are people of their own.
    section: "guardianOf",
    read: (sql, p, after, limit) =>
      sql`SELECT athlete_id::text AS k, jsonb_build_object('athleteId', athlete_id) AS row FROM guardianships
        WHERE user_id = ${id(p.userId)} AND athlete_id > ${after} ORDER BY athlete_id LIMIT ${limit}`,
    erase: (sql, p, limit) =>
      sql`WITH gone AS (DELETE FROM guardianships WHERE (user_id, athlete_id) IN (
          SELECT user_id, athlete_id FROM guardianships WHERE user_id = ${id(p.userId)} OR athlete_id = ${
        id(p.athleteId)
      }
          LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM gone`
  },
  {
    section: "guardians",
    read: (sql, p, after, limit) =>
      sql`SELECT user_id::text AS k, jsonb_build_object('userId', user_id) AS row FROM guardianships
        WHERE athlete_id = ${id(p.athleteId)} AND user_id > ${after} ORDER BY user_id LIMIT ${limit}`
  },
  {
    section: "sessionsInvitedTo",
    read: (sql, p, after, limit) =>
      sql`SELECT s.id::text AS k, jsonb_build_object('sessionId', s.id, 'name', s.name, 'creneau', s.creneau) AS row
        FROM session_athletes sa JOIN sessions s ON s.id = sa.session_id
        WHERE sa.athlete_id = ${id(p.athleteId)} AND s.id > ${after} ORDER BY s.id LIMIT ${limit}`
  },
  {
    // Stored answers: theirs, any other caller's that quotes one of their texts (an admin's create),
    // and a reply about their athlete that quotes one of its reasons (a guardian's): a reason alone
    // is too short a text to take another caller's answer by (its retry would write again). Before
    // the replies' holder, so that a batch run again still knows them.
    section: "idempotencyKeys",
    erase: (sql, p, limit) =>
      sql`WITH gone AS (DELETE FROM idempotency_keys WHERE (user_id, key) IN (
          SELECT k.user_id, k.key FROM idempotency_keys k WHERE k.user_id = ${id(p.userId)} OR EXISTS (
            SELECT 1 FROM unnest(${p.texts}::text[]) AS t(text)
            WHERE position(convert_to(t.text, 'UTF8') IN coalesce(k.body, ''::bytea)) > 0
              OR position(t.text IN coalesce(k.headers::text, '')) > 0)
          OR ((position(convert_to(${`"athleteId":${p.athleteId ?? 0},`}, 'UTF8') IN coalesce(k.body, ''::bytea)) > 0
              OR position(convert_to(${`"athleteId":${p.athleteId ?? 0}}`}, 'UTF8') IN coalesce(k.body, ''::bytea)) > 0)
            AND EXISTS (SELECT 1 FROM unnest(${p.reasons}::text[]) AS r(text)
              WHERE position(convert_to(r.text, 'UTF8') IN coalesce(k.body, ''::bytea)) > 0))
          LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM gone`
  },
  {
    // The answer stays, without its reason: a session's counts of replies stay right (decision 0253).
    section: "replies",
    read: (sql, p, after, limit) =>
      sql`SELECT session_id::text AS k, to_jsonb(r) AS row FROM session_replies r
        WHERE athlete_id = ${id(p.athleteId)} AND session_id > ${after} ORDER BY session_id LIMIT ${limit}`,
    erase: (sql, p, limit) =>
      sql`WITH done AS (UPDATE session_replies SET reason = NULL WHERE (session_id, athlete_id) IN (
          SELECT session_id, athlete_id FROM session_replies WHERE athlete_id = ${
        id(p.athleteId)
      } AND reason IS NOT NULL
          LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM done`
  },
  {
    section: "marks",
    read: (sql, p, after, limit) =>
      sql`SELECT session_id::text AS k, to_jsonb(m) AS row FROM attendance_marks m
        WHERE athlete_id = ${id(p.athleteId)} AND session_id > ${after} ORDER BY session_id LIMIT ${limit}`
  },
  {
    section: "markHistory",
    read: (sql, p, after, limit) =>
      sql`SELECT id::text AS k, to_jsonb(h) AS row FROM attendance_mark_history h
        WHERE athlete_id = ${id(p.athleteId)} AND id > ${after} ORDER BY id LIMIT ${limit}`
  },
  {
    // Titles stay (they are the sessions'); an error may quote their address, and a pending notice is never sent.
    section: "notices",
    read: (sql, p, after, limit) =>
      sql`SELECT id::text AS k, to_jsonb(n) - 'lease_owner' - 'leased_until' - 'dedupe_key' AS row FROM notices n
        WHERE (user_id = ${id(p.userId)} OR athlete_id = ${id(p.athleteId)}) AND id > ${after}
        ORDER BY id LIMIT ${limit}`,
    erase: (sql, p, limit) =>
      sql`WITH done AS (UPDATE notices SET last_error = NULL,
          status = CASE WHEN status = 'pending' THEN 'suppressed' ELSE status END
        WHERE id IN (SELECT id FROM notices WHERE (user_id = ${id(p.userId)} OR athlete_id = ${id(p.athleteId)})
          AND (last_error IS NOT NULL OR status = 'pending') LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM done`
  },
  {
    section: "noticePreferences",
    read: (sql, p, after) =>
      sql`SELECT user_id::text AS k, to_jsonb(n) AS row FROM notice_preferences n WHERE user_id = ${
        id(p.userId)
      } AND user_id > ${after}`,
    erase: (sql, p) =>
      sql`WITH gone AS (DELETE FROM notice_preferences WHERE user_id = ${id(p.userId)} RETURNING 1)
        SELECT count(*)::int AS count FROM gone`
  },
  {
    // Its existence and when it was issued: never the token (only its hash is stored anyway).
    section: "feedToken",
    read: (sql, p, after) =>
      sql`SELECT user_id::text AS k, jsonb_build_object('issuedAt', issued_at) AS row FROM feed_tokens
        WHERE user_id = ${id(p.userId)} AND user_id > ${after}`,
    erase: (sql, p) =>
      sql`WITH gone AS (DELETE FROM feed_tokens WHERE user_id = ${id(p.userId)} RETURNING 1)
        SELECT count(*)::int AS count FROM gone`
  },
  {
    // Their events keep their ids (a receiver's order and counts), without reasons or names.
    section: "events",
    read: (sql, p, after, limit) =>
      sql`SELECT id::text AS k, to_jsonb(e) AS row FROM attendance_events e
        WHERE ${aboutPerson(sql, p)} AND id > ${after} ORDER BY id LIMIT ${limit}`,
    erase: (sql, p, limit) =>
      sql`WITH done AS (UPDATE attendance_events SET data = data
            || CASE WHEN data ? 'reason' THEN '{"reason": null}'::jsonb ELSE '{}'::jsonb END
            || CASE WHEN data ? 'name' THEN jsonb_build_object('name', ${erasedName}::text) ELSE '{}'::jsonb END
        WHERE id IN (SELECT id FROM attendance_events WHERE ${aboutPerson(sql, p)}
          AND ((data->>'reason') IS NOT NULL OR (data ? 'name' AND (data->>'name') IS DISTINCT FROM ${erasedName}))
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM done`
  },
  {
    // A receiver's error text is theirs, not the person's, but may echo the body it was sent.
    section: "webhookAttempts",
    erase: (sql, p, limit) =>
      sql`WITH done AS (UPDATE webhook_attempts SET error = NULL WHERE id IN (
          SELECT a.id FROM webhook_attempts a JOIN attendance_events e ON e.id = a.event_id
          WHERE a.error IS NOT NULL AND ${aboutPerson(sql, p)} LIMIT ${limit} FOR UPDATE OF a SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM done`
  },
  {
    // Last: the holders above write audit entries of their own erasures (ids, no values). An entry
    // keeps its ids (which record, which operation, when); its values, subject, and, for their own
    // writes, the actor and request are blanked: the one rewrite the table allows (migration 0032).
    section: "auditEntries",
    read: (sql, p, after, limit) =>
      sql`SELECT a.id::text AS k, to_jsonb(a) AS row FROM audit_entries a
        WHERE ${auditAbout(sql, p)} AND a.id > ${after} ORDER BY a.id LIMIT ${limit}`,
    erase: (sql, p, limit) =>
      sql`WITH done AS (UPDATE audit_entries a SET changes = ${redactedChanges(sql)},
            subject_user_id = NULL, subject_athlete_id = NULL,
            actor_user_id = CASE WHEN a.actor_user_id = ${id(p.userId)} THEN NULL ELSE a.actor_user_id END,
            request_id = CASE WHEN a.actor_user_id = ${id(p.userId)} THEN NULL ELSE a.request_id END
        WHERE a.id IN (SELECT a.id FROM audit_entries a WHERE ${auditAbout(sql, p)}
          AND (a.changes <> ${redactedChanges(sql)} OR a.subject_user_id IS NOT NULL
            OR a.subject_athlete_id IS NOT NULL OR a.actor_user_id = ${id(p.userId)})
          ORDER BY a.id LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM done`
  },
  {
    // A throttling key names the login name tried (lowercased), with the client's address.
    section: "loginThrottle",
    erase: (sql, p, limit) =>
      sql`WITH gone AS (DELETE FROM login_throttle WHERE key IN (
          SELECT l.key FROM login_throttle l WHERE EXISTS (
            SELECT 1 FROM unnest(${p.texts}::text[]) AS t(text)
            WHERE starts_with(l.key, 'name-at-address:[' || to_jsonb(lower(t.text))::text || ','))
          LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING 1)
        SELECT count(*)::int AS count FROM gone`
  }
]

const PersonRow = Schema.Struct({
  id: Schema.NullOr(Schema.NumberFromString),
  athlete_id: Schema.NullOr(Schema.NumberFromString),
  coach_id: Schema.NullOr(Schema.NumberFromString),
  admin_id: Schema.NullOr(Schema.NumberFromString),
  texts: Schema.Array(Schema.String),
  reasons: Schema.Array(Schema.String)
})
const LedgerRow = Schema.Struct({
  user_id: Schema.NullOr(Schema.NumberFromString),
  athlete_id: Schema.NullOr(Schema.NumberFromString),
  coach_id: Schema.NullOr(Schema.NumberFromString),
  admin_id: Schema.NullOr(Schema.NumberFromString),
  erased_at_ms: Schema.NumberFromString
})
const PageRow = Schema.Struct({ k: Schema.NumberFromString, row: Schema.Record(Schema.String, Schema.Unknown) })

const erasedFrom = (row: typeof LedgerRow.Type): ErasedPerson => ({
  userId: row.user_id as UserId | null,
  athleteId: row.athlete_id as never,
  coachId: row.coach_id as never,
  adminId: row.admin_id as never,
  erasedAtMs: row.erased_at_ms
})

export const PersonDataRepositoryLive = Layer.effect(
  PersonDataRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cache = yield* CredentialsCache

    const asPerson = (rows: ReadonlyArray<typeof PersonRow.Type>): Option.Option<Person> =>
      Option.fromNullishOr(rows[0]).pipe(Option.map((row) => ({
        userId: row.id,
        athleteId: row.athlete_id,
        coachId: row.coach_id,
        adminId: row.admin_id,
        texts: row.texts.filter((text) => text.length > 0),
        reasons: row.reasons.filter((text) => text.length > 0)
      })))

    // Their replies' reasons, and those their events still tell (a reason replaced since, which a
    // stored answer of that day may quote: the events outlive the stored answers).
    const reasonsOf = (athleteId: Statement.Fragment) =>
      sql`ARRAY(SELECT r.reason FROM session_replies r WHERE r.athlete_id = ${athleteId} AND r.reason IS NOT NULL
        UNION SELECT e.data->>'reason' FROM attendance_events e
        WHERE (e.data->>'athleteId') = (${athleteId})::text AND (e.data->>'reason') IS NOT NULL) AS reasons`

    const personOf = (userId: UserId) =>
      sql`SELECT u.id::text AS id, u.athlete_id::text AS athlete_id, u.coach_id::text AS coach_id,
          u.admin_id::text AS admin_id,
          array_remove(ARRAY[u.name, u.email, a.name, c.name, d.name], NULL) AS texts, ${reasonsOf(sql`u.athlete_id`)}
        FROM users u LEFT JOIN athletes a ON a.id = u.athlete_id LEFT JOIN coaches c ON c.id = u.coach_id
        LEFT JOIN admins d ON d.id = u.admin_id WHERE u.id = ${BigInt(userId)}`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(PersonRow))),
        Effect.map(asPerson)
      )

    /**
     * The athlete's person: the user that links it (at most one does; a user links one record), with
     * the same ids and texts as `personOf` that user; else the athlete alone, with no user.
     */
    const personOfAthlete = (athleteId: AthleteId) =>
      sql`SELECT u.id::text AS id, a.id::text AS athlete_id, u.coach_id::text AS coach_id,
          u.admin_id::text AS admin_id, array_remove(ARRAY[u.name, u.email, a.name], NULL) AS texts,
          ${reasonsOf(sql`a.id`)}
        FROM athletes a LEFT JOIN users u ON u.athlete_id = a.id WHERE a.id = ${BigInt(athleteId)}`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(PersonRow))),
        Effect.map(asPerson)
      )

    const ledgerWhere = (where: Statement.Fragment) =>
      sql`SELECT user_id::text AS user_id, athlete_id::text AS athlete_id, coach_id::text AS coach_id,
          admin_id::text AS admin_id, erased_at_ms::text AS erased_at_ms
        FROM person_erasures WHERE ${where}`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(LedgerRow))),
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), erasedFrom))
      )

    /** The ledger's row of the person: by their user, or, for an athlete alone, by the athlete with no user. */
    const ledgerOf = (p: Pick<Person, "userId" | "athleteId">) =>
      p.userId !== null
        ? ledgerWhere(sql`user_id = ${BigInt(p.userId)}`)
        : ledgerWhere(sql`user_id IS NULL AND athlete_id = ${id(p.athleteId)}`)

    const pagesOf = (person: Person, pageSize: number): Stream.Stream<PersonExportSection> =>
      Stream.fromIterable(holders.filter((holder) => holder.read !== undefined)).pipe(
        Stream.flatMap((holder) =>
          Stream.paginate(BigInt(0), (after) =>
            holder.read!(sql, person, after, pageSize).pipe(
              Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(PageRow))),
              Effect.map((rows) => {
                const page: PersonExportSection = { section: holder.section, rows: rows.map((r) => r.row) }
                const last = rows.at(-1)
                return [
                  [page],
                  rows.length < pageSize || last === undefined ? Option.none() : Option.some(BigInt(last.k))
                ] as const
              }),
              Effect.orDie
            ))
        )
      )

    const exportPerson = (userId: UserId, pageSize: number): Stream.Stream<PersonExportSection, EntityNotFound> =>
      Stream.unwrap(Effect.gen(function*() {
        const found = yield* Effect.orDie(personOf(userId))
        if (Option.isNone(found)) return yield* personNotFound(userId)
        return pagesOf(found.value, pageSize)
      }))

    const exportAthlete = (
      athleteId: AthleteId,
      pageSize: number
    ): Stream.Stream<PersonExportSection, EntityNotFound> =>
      Stream.unwrap(Effect.gen(function*() {
        const found = yield* Effect.orDie(personOfAthlete(athleteId))
        if (Option.isNone(found)) return yield* athletePersonNotFound(athleteId)
        return pagesOf(found.value, pageSize)
      }))

    /** The erasure of a person found (`erase` and `eraseAthlete`): its ledger row when done already. */
    const erasePerson = Effect.fnUntraced(function*(person: Person, batchSize: number) {
      const done = yield* ledgerOf(person)
      if (Option.isSome(done)) return done.value
      for (const holder of holders) {
        if (holder.erase === undefined) continue
        for (;;) {
          const [row] = yield* autocommitWrite(sql)(holder.erase(sql, person, batchSize))
          if (row === undefined || countFromRow(row).count < batchSize) break
        }
      }
      // The last transaction: of two erasures at once, the one whose ledger row is written ends the
      // person and tells (the row is unique by user, and by athlete for a row with no user). A user's
      // credentials change: the other instances' caches hear of it when it commits; an athlete alone has none.
      const last = Effect.gen(function*() {
        const written = yield* sql`INSERT INTO person_erasures (user_id, athlete_id, coach_id, admin_id, erased_at_ms)
          VALUES (${id(person.userId)}, ${id(person.athleteId)}, ${id(person.coachId)}, ${id(person.adminId)},
            (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
          ON CONFLICT DO NOTHING RETURNING id`
        if (written.length > 0) {
          yield* sql`UPDATE users SET name = '(erased ' || gen_random_uuid()::text || ')', email = NULL,
              password_hash = 'erased',
              tokens_valid_after = GREATEST(tokens_valid_after, floor(extract(epoch FROM now()))::bigint + 1)
            WHERE id = ${id(person.userId)}`
          yield* sql`UPDATE athletes SET name = NULL, categorie = NULL, niveau = NULL WHERE id = ${
            id(person.athleteId)
          }`
          yield* sql`UPDATE coaches SET name = NULL WHERE id = ${id(person.coachId)}`
          yield* sql`UPDATE admins SET name = NULL WHERE id = ${id(person.adminId)}`
          yield* writeEvents(sql, [{
            sessionId: null,
            type: "personErased",
            data: {
              userId: person.userId,
              athleteId: person.athleteId,
              coachId: person.coachId,
              adminId: person.adminId
            }
          }])
        }
        const ledger = yield* ledgerOf(person)
        return Option.getOrThrow(ledger)
      })
      return yield* (person.userId === null ? transaction(sql)(last) : cache.invalidating(last))
    })

    const erase = traced("PersonDataRepository.erase")(
      function*(userId: UserId, batchSize: number) {
        const done = yield* ledgerOf({ userId, athleteId: null })
        if (Option.isSome(done)) return done.value
        const found = yield* personOf(userId)
        if (Option.isNone(found)) return yield* personNotFound(userId)
        return yield* erasePerson(found.value, batchSize)
      },
      dieOnInfrastructureError
    )

    const eraseAthlete = traced("PersonDataRepository.eraseAthlete")(
      function*(athleteId: AthleteId, batchSize: number) {
        const found = yield* personOfAthlete(athleteId)
        if (Option.isNone(found)) return yield* athletePersonNotFound(athleteId)
        return yield* erasePerson(found.value, batchSize)
      },
      dieOnInfrastructureError
    )

    const erasures = traced("PersonDataRepository.erasures")(
      function*() {
        const rows = yield* sql`SELECT user_id::text AS user_id, athlete_id::text AS athlete_id,
            coach_id::text AS coach_id, admin_id::text AS admin_id, erased_at_ms::text AS erased_at_ms
          FROM person_erasures ORDER BY id`.pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(LedgerRow)))
        )
        return rows.map(erasedFrom)
      },
      dieOnInfrastructureError
    )

    return PersonDataRepository.of({ exportPerson, erase, exportAthlete, eraseAthlete, erasures })
  })
)
