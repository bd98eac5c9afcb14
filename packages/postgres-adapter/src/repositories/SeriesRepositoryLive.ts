import {
  DoubleBooking,
  type LocalDateTime,
  ScheduleConflict,
  ScheduleSettings,
  Series,
  type SeriesCreate,
  type SeriesId,
  SeriesRepository,
  traced
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { bookSessions, doubleBookings, sessionsMet } from "../sql/bookings.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { int8Array } from "../sql/int8Array.ts"
import { requireKnownIds } from "../sql/requireKnownIds.ts"
import { transaction } from "../sql/transaction.ts"

const local = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS')`

/** A series and its occurrences as one JSON value, built by the database in one statement. */
const seriesJson = `json_build_object(
  'id', s.id, 'name', s.name, 'groupe', s.groupe, 'coachId', s.coach_id, 'duree', s.duree,
  'start', ${local("s.start")}, 'rrule', s.rrule, 'athleteIds', to_json(s.athlete_ids),
  'expandedUntil', ${local("s.expanded_until")}, 'endsBefore', ${local("s.ends_before")},
  'occurrences', COALESCE((
    SELECT json_agg(json_build_object('sessionId', o.id, 'occurrenceStart', ${local("o.occurrence_start")})
      ORDER BY o.occurrence_start)
    FROM sessions o WHERE o.series_id = s.id), '[]'::json)
) AS series`

const decodeSeries = Schema.decodeUnknownEffect(Series)
const decodeDoubleBookings = Schema.decodeUnknownEffect(Schema.Array(DoubleBooking))

export const SeriesRepositoryLive = Layer.effect(
  SeriesRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

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
     * series' values and its athletes that exist, in one statement. A time the series already has
     * a session for is skipped (the unique index on `(series_id, occurrence_start)`), so two
     * writers extending at once create each occurrence once. Generated session ids are drawn under
     * the lock that supplied session ids take, so that they never meet one. The new sessions then
     * book their coach and athletes (`bookSessions`); answers the new sessions' ids and whether a
     * booking was skipped.
     */
    const addOccurrences = (id: number, times: ReadonlyArray<LocalDateTime>, onlyNew: boolean) =>
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${"club.supplied-id.sessions"}))`
        const { timeZone } = yield* ScheduleSettings
        const created = yield* sql<{ id: number }>`WITH occurrence AS (
            INSERT INTO sessions (name, is_recurrent, creneau, duree, groupe, coach_id, series_id, occurrence_start)
            SELECT s.name, true, t, s.duree, s.groupe, s.coach_id, s.id, t
            FROM series s, unnest(${times}::timestamp[]) AS t
            WHERE s.id = ${id} AND (s.ends_before IS NULL OR t < s.ends_before)
              ${onlyNew ? sql`AND t > s.expanded_until` : sql``}
            ON CONFLICT (series_id, occurrence_start) DO NOTHING
            RETURNING id),
          membership AS (
            INSERT INTO session_athletes (session_id, athlete_id)
            SELECT occurrence.id, a.id FROM occurrence, series s JOIN athletes a ON a.id = ANY(s.athlete_ids)
            WHERE s.id = ${id})
          SELECT id::float8 AS id FROM occurrence`
        const ids = created.map((row) => Number(row.id))
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
          return Option.getOrThrow(yield* findOne(row!.id))
        }))
      },
      dieOnInfrastructureError
    )

    const findById = traced("SeriesRepository.findById")(function*(id: SeriesId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const extend = traced("SeriesRepository.extend")(
      function*(id: SeriesId, occurrences: ReadonlyArray<LocalDateTime>, until: LocalDateTime) {
        yield* transaction(sql)(Effect.gen(function*() {
          yield* addOccurrences(id, occurrences, true)
          yield* sql`UPDATE series SET expanded_until = GREATEST(expanded_until, ${until}::timestamp) WHERE id = ${id}`
        }))
      },
      dieOnInfrastructureError
    )

    const endBefore = traced("SeriesRepository.endBefore")(function*(id: SeriesId, from: LocalDateTime) {
      // One statement: the sessions go (their memberships, bookings and activities by ON DELETE
      // CASCADE) and the series ends there.
      yield* sql`WITH gone AS (DELETE FROM sessions WHERE series_id = ${id} AND occurrence_start >= ${from}::timestamp)
        UPDATE series SET ends_before = LEAST(COALESCE(ends_before, ${from}::timestamp), ${from}::timestamp)
        WHERE id = ${id}`
    }, dieOnInfrastructureError)

    const cancelAt = traced("SeriesRepository.cancelAt")(function*(id: SeriesId, time: LocalDateTime) {
      yield* sql`DELETE FROM sessions WHERE series_id = ${id} AND occurrence_start = ${time}::timestamp`
    }, dieOnInfrastructureError)

    const conflicts = traced("SeriesRepository.conflicts")(function*() {
      const { timeZone } = yield* ScheduleSettings
      const rows = yield* sql<Record<string, unknown>>`${doubleBookings(sql, timeZone)}`
      return yield* Effect.orDie(decodeDoubleBookings(rows))
    }, dieOnInfrastructureError)

    return SeriesRepository.of({ create, findById, extend, endBefore, cancelAt, conflicts })
  })
)
