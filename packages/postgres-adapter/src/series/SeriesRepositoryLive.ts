import {
  type AthleteId,
  type CoachId,
  DoubleBooking,
  type DoubleBookingPosition,
  type LocalDateTime,
  type OccurrenceValues,
  type PlannedSessionCreate,
  type SeriesRewrite,
  SessionCreate,
  type SessionId,
  SessionRepository,
  ScheduleConflict,
  ScheduleSettings,
  Series,
  type SeriesCancellation,
  type SeriesCreate,
  type SeriesId,
  SeriesRepository,
  seriesCancelled,
  seriesChanged,
  seriesCreated,
  sessionCancelled,
  sessionChanged,
  type SessionFacts,
  traced
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { bookSessions, doubleBookings, sessionsMet } from "../sessions/bookings.ts"
import { SessionRepositoryLive } from "../sessions/SessionRepositoryLive.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { int8Array } from "../shared/int8Array.ts"
import { requireKnownIds } from "../shared/requireKnownIds.ts"
import { transaction } from "../shared/transaction.ts"
import { writeEvents } from "../webhooks/outbox.ts"

/** How often a batch of occurrences is tried again for ids that supplied ones took meanwhile. */
const maxIdAttempts = 20

const local = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS')`

/** A series and `occurrences` (SQL giving a JSON array) as one JSON value, built by the database in one statement. */
const seriesJsonWith = (occurrences: string) =>
  `json_build_object(
  'id', s.id, 'name', s.name, 'groupe', s.groupe, 'coachId', s.coach_id, 'duree', s.duree,
  'start', ${local("s.start")}, 'rrule', s.rrule, 'athleteIds', to_json(s.athlete_ids),
  'expandedUntil', ${local("s.expanded_until")}, 'endsBefore', ${local("s.ends_before")},
  'continuedBy', s.continued_by, 'revision', s.revision, 'occurrences', ${occurrences}
) AS series`

/** A series and its occurrences. */
const seriesJson = seriesJsonWith(`COALESCE((
    SELECT json_agg(json_build_object('sessionId', o.id, 'occurrenceStart', ${local("o.occurrence_start")},
      'overridden', o.overridden) ORDER BY o.occurrence_start)
    FROM sessions o WHERE o.series_id = s.id), '[]'::json)`)

/**
 * A series without its occurrences (`[]`): what an extension needs, without a list that grows with
 * the series and that every round of the extension would build and decode again.
 */
const seriesJsonAlone = seriesJsonWith(`'[]'::json`)

const decodeSeries = Schema.decodeUnknownEffect(Series)
const decodeSeriesList = Schema.decodeUnknownEffect(Schema.Array(Series))

/** The values a change gives, as `column = value` assignments (none for a field not given). */
const assignments = (sql: SqlClient.SqlClient, values: OccurrenceValues): Array<Fragment> => [
  ...("name" in values ? [sql`name = ${values.name ?? null}`] : []),
  ...("groupe" in values ? [sql`groupe = ${values.groupe ?? null}`] : []),
  ...("coachId" in values ? [sql`coach_id = ${values.coachId ?? null}`] : []),
  ...(values.duree === undefined ? [] : [sql`duree = ${values.duree}`])
]

/** The coach and athletes a change names, which must exist. */
const referencesOf = (values: OccurrenceValues) => [
  { field: "athleteIds", entity: "Athlete" as const, table: "athletes", ids: values.athleteIds ?? [] },
  {
    field: "coachId",
    entity: "Coach" as const,
    table: "coaches",
    ids: values.coachId === undefined || values.coachId === null ? [] : [values.coachId]
  }
]
const decodeDoubleBookings = Schema.decodeUnknownEffect(Schema.Array(DoubleBooking))

/** A session event's facts, from the row of `s`. */
const sessionFacts = `s.id::float8 AS id, s.name, ${local("s.creneau")} AS creneau, s.duree::float8 AS duree,
  s.series_id::float8 AS "seriesId"`

export const SeriesRepositoryLive = Layer.effect(
  SeriesRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const sessions = yield* SessionRepository

    /** A session's facts as a change leaves them (read in the change's transaction). */
    const factsOf = (id: number) =>
      Effect.map(
        sql<SessionFacts>`SELECT ${sql.literal(sessionFacts)} FROM sessions s WHERE s.id = ${id}`,
        (rows) => rows[0]!
      )

    const findOne = (id: number) =>
      Effect.flatMap(
        sql<{ series: unknown }>`SELECT ${sql.literal(seriesJson)} FROM series s WHERE s.id = ${id}`,
        (rows) =>
          rows.length === 0
            ? Effect.succeed(Option.none<Series>())
            : Effect.map(Effect.orDie(decodeSeries(rows[0]!.series)), Option.some)
      )

    /**
     * A session per time (later than the series' `expanded_until` when `onlyNew`), each with the
     * series' values and its athletes that exist. A time the series already has a session for is
     * skipped (the unique index on `(series_id, occurrence_start)`), so two writers extending at
     * once create each occurrence once. Generated ids take no lock (issue 37: the lock of supplied
     * session ids, held for a whole series, stalled every session create): a supplied id inserted
     * meanwhile may take the id the sequence hands out next, and that time is then skipped too
     * (`ON CONFLICT DO NOTHING` over every unique index) and tried again with a fresh id, as
     * `insertWithGeneratedId` does. The new sessions then book their coach and athletes
     * (`bookSessions`); answers the new sessions' ids and whether a booking was skipped.
     */
    const addOccurrences = (id: number, times: ReadonlyArray<LocalDateTime>, onlyNew: boolean) =>
      Effect.gen(function*() {
        const { timeZone } = yield* ScheduleSettings
        const ids: Array<number> = []
        const wanted = (candidates: ReadonlyArray<string>) =>
          sql`FROM series s, unnest(${candidates}::timestamp[]) AS t
            WHERE s.id = ${id} AND (s.ends_before IS NULL OR t < s.ends_before)
              ${onlyNew ? sql`AND t > s.expanded_until` : sql``}`
        let left: ReadonlyArray<string> = times
        for (let attempt = 1; left.length > 0; attempt++) {
          if (attempt > maxIdAttempts) {
            return yield* Effect.die(new Error(`sessions: no free generated id after ${maxIdAttempts} attempts`))
          }
          const created = yield* sql<{ id: number }>`WITH occurrence AS (
              INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id, series_id, occurrence_start)
              SELECT s.name, true, t, s.duree, s.groupe, s.coach_id, s.id, t ${wanted(left)}
              ON CONFLICT DO NOTHING
              RETURNING id),
            membership AS (
              INSERT INTO session_athletes (session_id, athlete_id)
              SELECT occurrence.id, a.id FROM occurrence, series s JOIN athletes a ON a.id = ANY(s.athlete_ids)
              WHERE s.id = ${id})
            SELECT id::float8 AS id FROM occurrence`
          ids.push(...created.map((row) => Number(row.id)))
          if (created.length === left.length) break
          // Some were skipped: those the series has (or its end excludes) stay so; the rest met a supplied id.
          const missing = yield* sql<{ t: string }>`SELECT ${sql.literal(local("t"))} AS t ${wanted(left)}
            AND NOT EXISTS (SELECT 1 FROM sessions o WHERE o.series_id = s.id AND o.occurrence_start = t)`
          left = missing.map((row) => row.t)
        }
        const skipped = ids.length === 0 ? false : yield* bookSessions(sql, timeZone, ids)
        return { ids, skipped, timeZone }
      })

    const create = traced("SeriesRepository.create")(
      function*(input: SeriesCreate, occurrences: ReadonlyArray<LocalDateTime>, expandedUntil: LocalDateTime) {
        return yield* transaction(sql)(Effect.gen(function*() {
          yield* requireKnownIds(
            sql,
            { field: "athleteIds", entity: "Athlete", table: "athletes", ids: input.athleteIds },
            { field: "coachId", entity: "Coach", table: "coaches", ids: input.coachId === null ? [] : [input.coachId] }
          )
          const athleteIds = [...new Set(input.athleteIds)].sort((a, b) => a - b)
          const [row] = yield* sql<{ id: number }>`INSERT INTO series
            (name, groupe, coach_id, duree, start, rrule, athlete_ids, expanded_until)
            VALUES (${input.name}, ${input.groupe}, ${input.coachId}, ${input.duree}, ${input.start},
              ${input.rrule}, ${int8Array(athleteIds)}::bigint[], ${expandedUntil})
            RETURNING id::float8 AS id`
          const added = yield* addOccurrences(row!.id, occurrences, false)
          if (added.skipped) {
            return yield* new ScheduleConflict({ sessionIds: yield* sessionsMet(sql, added.timeZone, added.ids) })
          }
          const created = Option.getOrThrow(yield* findOne(row!.id))
          // One event for the series, none per occurrence (decision 0280).
          yield* writeEvents(sql, [seriesCreated(created)])
          return created
        }))
      },
      dieOnInfrastructureError
    )

    const findById = traced("SeriesRepository.findById")(function*(id: SeriesId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const findMany = traced("SeriesRepository.findMany")(function*(ids: ReadonlyArray<SeriesId>) {
      if (ids.length === 0) return []
      const rows = yield* sql<{ series: unknown }>`SELECT ${sql.literal(seriesJson)} FROM series s
        WHERE s.id = ANY(${int8Array(ids)}::bigint[]) ORDER BY s.id`
      return yield* Effect.orDie(decodeSeriesList(rows.map((row) => row.series)))
    }, dieOnInfrastructureError)

    /**
     * Writes `values` into the sessions of `ids` (and their memberships when `athleteIds` is
     * given), `creneau` to their occurrence time when `moved`, their revision one more; then books
     * them again, and refuses with the sessions met when a booking is taken elsewhere.
     */
    const rewriteSessions = (ids: ReadonlyArray<number>, values: OccurrenceValues, set: ReadonlyArray<Fragment>) =>
      Effect.gen(function*() {
        if (ids.length === 0) return
        const idArray = int8Array(ids)
        const changes: Array<Fragment> = [
          ...assignments(sql, values),
          ...set,
          sql`revision = revision + 1`,
          sql`change = nextval('session_changes')`
        ]
        yield* sql`UPDATE sessions SET ${sql.csv(changes)} WHERE id = ANY(${idArray}::bigint[])`
        yield* sql`DELETE FROM coach_bookings WHERE session_id = ANY(${idArray}::bigint[])`
        yield* sql`DELETE FROM athlete_bookings WHERE session_id = ANY(${idArray}::bigint[])`
        if (values.athleteIds !== undefined) {
          // Only the memberships no longer listed go, and only the missing ones are added: a DELETE
          // and an INSERT of the same row in one statement meet in the primary key (the INSERT does
          // not see the DELETE), so a kept athlete is never deleted and inserted again.
          const athleteArray = int8Array([...new Set(values.athleteIds)])
          yield* sql`WITH gone AS (DELETE FROM session_athletes
              WHERE session_id = ANY(${idArray}::bigint[]) AND NOT (athlete_id = ANY(${athleteArray}::bigint[])))
            INSERT INTO session_athletes (session_id, athlete_id)
            SELECT s, a FROM unnest(${idArray}::bigint[]) AS s, unnest(${athleteArray}::bigint[]) AS a
            ON CONFLICT DO NOTHING`
        }
        const { timeZone } = yield* ScheduleSettings
        if (yield* bookSessions(sql, timeZone, ids)) {
          return yield* new ScheduleConflict({ sessionIds: yield* sessionsMet(sql, timeZone, ids) })
        }
      })

    const rewrite = traced("SeriesRepository.rewrite")(function*(id: SeriesId, change: SeriesRewrite) {
      return yield* transaction(sql)(Effect.gen(function*() {
        // The series locked for the change: another change, or an extension, of it waits its turn.
        yield* sql`SELECT 1 FROM series WHERE id = ${id} FOR UPDATE`
        const found = yield* findOne(id)
        if (Option.isNone(found)) return Option.none<Series>()
        const old = found.value
        yield* requireKnownIds(sql, ...referencesOf(change.values))
        const v = change.values
        const merged = {
          name: "name" in v ? v.name ?? null : old.name,
          groupe: "groupe" in v ? v.groupe ?? null : old.groupe,
          coachId: "coachId" in v ? v.coachId ?? null : old.coachId,
          duree: v.duree ?? old.duree,
          athleteIds: v.athleteIds === undefined
            ? old.athleteIds
            : [...new Set(v.athleteIds)].sort((a, b) => a - b)
        }
        const shift = sql`${change.shiftSeconds} * interval '1 second'`
        let target: number = id
        if (change.continuation) {
          const [row] = yield* sql<{ id: number }>`INSERT INTO series
            (name, groupe, coach_id, duree, start, rrule, athlete_ids, expanded_until, ends_before)
            SELECT ${merged.name}, ${merged.groupe}, ${merged.coachId}, ${merged.duree}, ${change.start},
              ${change.rrule}, ${int8Array(merged.athleteIds)}::bigint[], expanded_until + ${shift},
              ends_before + ${shift}
            FROM series WHERE id = ${id}
            RETURNING id::float8 AS id`
          target = row!.id
          yield* sql`UPDATE series SET continued_by = ${target},
            ends_before = LEAST(COALESCE(ends_before, ${change.from}::timestamp), ${change.from}::timestamp)
            WHERE id = ${id}`
        } else {
          yield* sql`UPDATE series SET name = ${merged.name}, groupe = ${merged.groupe}, coach_id = ${merged.coachId},
            duree = ${merged.duree}, start = ${change.start}, rrule = ${change.rrule},
            athlete_ids = ${int8Array(merged.athleteIds)}::bigint[], expanded_until = expanded_until + ${shift},
            ends_before = ends_before + ${shift}
            WHERE id = ${id}`
        }
        // Every occurrence from `from` on follows the series (the shifts keep each on its own day,
        // so no two meet in the unique index); those not overridden take the change.
        // The cancellations from `from` on follow the occurrences, as the occurrences do.
        yield* sql`UPDATE series_cancellations
          SET series_id = ${target}, occurrence_start = occurrence_start + ${shift}
          WHERE series_id = ${id} AND occurrence_start >= ${change.from}::timestamp`
        const moved = yield* sql<{ id: number; overridden: boolean }>`UPDATE sessions
          SET series_id = ${target}, occurrence_start = occurrence_start + ${shift}
          WHERE series_id = ${id} AND occurrence_start >= ${change.from}::timestamp
          RETURNING id::float8 AS id, overridden`
        yield* rewriteSessions(
          moved.filter((row) => !row.overridden).map((row) => Number(row.id)),
          change.values,
          change.shiftSeconds === 0 ? [] : [sql`creneau = occurrence_start`]
        )
        yield* writeEvents(sql, [seriesChanged(id, change.from, change.continuation ? target : null)])
        return yield* findOne(target)
      }))
    }, dieOnInfrastructureError)

    const changeOccurrence = traced("SeriesRepository.changeOccurrence")(
      function*(id: SeriesId, sessionId: SessionId, change: OccurrenceValues & { readonly creneau?: LocalDateTime }) {
        yield* transaction(sql)(Effect.gen(function*() {
          yield* requireKnownIds(sql, ...referencesOf(change))
          const [before] = yield* sql<SessionFacts>`SELECT ${sql.literal(sessionFacts)} FROM sessions s
            WHERE s.id = ${sessionId} AND s.series_id = ${id} FOR UPDATE`
          if (before === undefined) return
          yield* rewriteSessions([sessionId], change, [
            sql`overridden = true`,
            ...(change.creneau === undefined ? [] : [sql`creneau = ${change.creneau}`])
          ])
          yield* writeEvents(sql, [sessionChanged(yield* factsOf(sessionId), before)])
        }))
      },
      dieOnInfrastructureError
    )

    /**
     * A session planned alone is the seed's session create that books its people
     * (`SessionRepository.create` under `ScheduleSettings.seedRefusesConflicts`, as its port says):
     * the session, its athletes and its event in one statement, then its bookings, in one
     * transaction, its references assumed and checked only when refused (decision 0326).
     */
    const createSession = traced("SeriesRepository.createSession")(function*(input: PlannedSessionCreate) {
      const settings = yield* ScheduleSettings
      const created = yield* sessions.create(
        new SessionCreate({
          id: null,
          name: input.name,
          isRecurrent: false,
          creneau: input.creneau,
          duree: input.duree,
          groupe: input.groupe,
          coachId: input.coachId,
          athleteIds: input.athleteIds,
          activiteIds: []
        })
      ).pipe(
        Effect.provideService(ScheduleSettings, { ...settings, seedRefusesConflicts: true }),
        // No id is supplied: none can be in use.
        Effect.catchTag("IdAlreadyInUse", (error) => Effect.die(error))
      )
      return created
    })

    const changeSession = traced("SeriesRepository.changeSession")(
      function*(id: SessionId, change: OccurrenceValues & { readonly creneau?: LocalDateTime }) {
        return yield* transaction(sql)(Effect.gen(function*() {
          const [before] = yield* sql<SessionFacts>`SELECT ${sql.literal(sessionFacts)} FROM sessions s
            WHERE s.id = ${id} FOR UPDATE`
          if (before === undefined) return false
          yield* requireKnownIds(sql, ...referencesOf(change))
          yield* rewriteSessions([id], change, [
            sql`overridden = (series_id IS NOT NULL)`,
            ...(change.creneau === undefined ? [] : [sql`creneau = ${change.creneau}`])
          ])
          yield* writeEvents(sql, [sessionChanged(yield* factsOf(id), before)])
          return true
        }))
      },
      dieOnInfrastructureError
    )

    const dueForExtension = traced("SeriesRepository.dueForExtension")(
      function*(until: LocalDateTime, limit: number) {
        const rows = yield* sql<{ series: unknown }>`SELECT ${sql.literal(seriesJsonAlone)} FROM series s
          WHERE s.expanded_until < ${until}::timestamp AND (s.ends_before IS NULL OR s.ends_before > s.expanded_until)
          ORDER BY s.expanded_until, s.id LIMIT ${limit}`
        return yield* Effect.orDie(decodeSeriesList(rows.map((row) => row.series)))
      },
      dieOnInfrastructureError
    )

    const extend = traced("SeriesRepository.extend")(
      function*(id: SeriesId, occurrences: ReadonlyArray<LocalDateTime>, until: LocalDateTime) {
        return yield* transaction(sql)(Effect.gen(function*() {
          // After a change that ended the series or moved its times, never before it (`rewrite`
          // holds this lock). A series another writer holds is skipped, not waited for (issue 37):
          // the holder extends it, or a later round of the server's extension does.
          const held = yield* sql`SELECT 1 FROM series WHERE id = ${id} FOR UPDATE SKIP LOCKED`
          if (held.length === 0) return false
          yield* addOccurrences(id, occurrences, true)
          yield* sql`UPDATE series SET expanded_until = GREATEST(expanded_until, ${until}::timestamp) WHERE id = ${id}`
          return true
        }))
      },
      dieOnInfrastructureError
    )

    const endBefore = traced("SeriesRepository.endBefore")(
      function*(id: SeriesId, from: LocalDateTime) {
        // One statement: the sessions go (their memberships, bookings and activities by ON DELETE
        // CASCADE) and the series ends there.
        const ended = yield* sql`WITH gone AS (DELETE FROM sessions
          WHERE series_id = ${id} AND occurrence_start >= ${from}::timestamp),
        uncancelled AS (DELETE FROM series_cancellations
          WHERE series_id = ${id} AND occurrence_start >= ${from}::timestamp)
        UPDATE series SET ends_before = LEAST(COALESCE(ends_before, ${from}::timestamp), ${from}::timestamp)
        WHERE id = ${id} RETURNING id`
        // One event for the series, none per occurrence it deletes (decision 0280).
        if (ended.length > 0) yield* writeEvents(sql, [seriesCancelled(id, from)])
      },
      transaction(sql),
      dieOnInfrastructureError
    )

    const cancelAt = traced("SeriesRepository.cancelAt")(
      function*(id: SeriesId, time: LocalDateTime) {
        // One statement, so one transaction: the session goes (its memberships, bookings and
        // activities by ON DELETE CASCADE) and the series remembers the cancellation.
        // Its athletes are read from the statement's snapshot, before the cascade removes them.
        const gone = yield* sql<SessionFacts & { groupe: string | null; athleteIds: ReadonlyArray<number> }>`WITH s AS (
          DELETE FROM sessions WHERE series_id = ${id} AND occurrence_start = ${time}::timestamp
          RETURNING id, series_id, occurrence_start, revision, coach_id, groupe, name, creneau, duree),
        remembered AS (
          INSERT INTO series_cancellations (series_id, occurrence_start, sequence, coach_id, groupe, athlete_ids)
          SELECT g.series_id, g.occurrence_start, GREATEST(g.revision, r.revision) + 1, g.coach_id, g.groupe,
            COALESCE((SELECT array_agg(sa.athlete_id ORDER BY sa.athlete_id) FROM session_athletes sa
              WHERE sa.session_id = g.id), '{}')
          FROM s g JOIN series r ON r.id = g.series_id
          ON CONFLICT (series_id, occurrence_start) DO NOTHING)
        SELECT ${sql.literal(sessionFacts)}, s.groupe,
          ARRAY(SELECT sa.athlete_id::float8 FROM session_athletes sa WHERE sa.session_id = s.id) AS "athleteIds"
        FROM s`
        if (gone.length > 0) yield* writeEvents(sql, [sessionCancelled(gone[0]!)])
      },
      transaction(sql),
      dieOnInfrastructureError
    )

    const cancellations = traced("SeriesRepository.cancellations")(function*(ids: ReadonlyArray<SeriesId>) {
      if (ids.length === 0) return []
      const rows = yield* sql<{
        seriesId: number
        occurrenceStart: string
        sequence: number
        coachId: number | null
        groupe: string | null
        athleteIds: ReadonlyArray<number>
      }>`SELECT series_id::float8 AS "seriesId", ${sql.literal(local("occurrence_start"))} AS "occurrenceStart",
          sequence, coach_id::float8 AS "coachId", groupe, to_json(athlete_ids) AS "athleteIds"
        FROM series_cancellations WHERE series_id = ANY(${int8Array(ids)}::bigint[])
        ORDER BY series_id, occurrence_start`
      return rows.map((row): SeriesCancellation => ({
        seriesId: Number(row.seriesId) as SeriesId,
        occurrenceStart: row.occurrenceStart as LocalDateTime,
        sequence: Number(row.sequence),
        coachId: row.coachId === null ? null : Number(row.coachId) as CoachId,
        groupe: row.groupe,
        athleteIds: row.athleteIds.map((athleteId) => Number(athleteId) as AthleteId)
      }))
    }, dieOnInfrastructureError)

    const conflicts = traced("SeriesRepository.conflicts")(function*(
      after: DoubleBookingPosition | undefined,
      limit: number
    ) {
      const { timeZone } = yield* ScheduleSettings
      const rows = yield* sql<Record<string, unknown>>`${doubleBookings(sql, timeZone, after, limit)}`
      return yield* Effect.orDie(decodeDoubleBookings(rows))
    }, dieOnInfrastructureError)

    return SeriesRepository.of({
      create,
      findById,
      findMany,
      rewrite,
      changeOccurrence,
      createSession,
      changeSession,
      dueForExtension,
      extend,
      endBefore,
      cancelAt,
      cancellations,
      conflicts
    })
  })
).pipe(
  // Its session creates are the sessions repository's: the same layer, built once with it in RepositoriesLive.
  Layer.provide(SessionRepositoryLive)
)
