import { type LocalDateTime, PlannedSessionCreate, SeriesCreate, SeriesRepository } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * Issue 37: a series' occurrences and a planned session draw generated ids without the lock of
 * supplied session ids (held for a whole series, it stalled every session create). A supplied id
 * inserted meanwhile may take the id the sequence hands out next; the write steps over it.
 */
onEachDatabase("Series and planned sessions: generated ids without the supplied-id lock", (it) => {
  /** What a concurrent supplied-id insert looks like between its INSERT and its setval: the next `count` ids taken. */
  const takeNextIds = (count: number) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`SELECT nextval('sessions_id_seq')`
      const [sequence] = yield* sql<{ next: number }>`SELECT (last_value + 1)::float8 AS next FROM sessions_id_seq`
      const next = Number(sequence!.next)
      for (let id = next; id < next + count; id++) yield* sql`INSERT INTO sessions (id, name) VALUES (${id}, 'sneaky')`
      return next
    })

  it.effect("a series' occurrences step over ids taken behind the sequence's back, each time once", () =>
    Effect.gen(function*() {
      const next = yield* takeNextIds(3)
      const series = yield* (yield* SeriesRepository).create(
        new SeriesCreate({
          name: "Stepping over",
          groupe: null,
          coachId: null,
          duree: 60,
          start: "2034-01-02T18:00:00" as LocalDateTime,
          rrule: "FREQ=DAILY;COUNT=5",
          athleteIds: []
        }),
        ["2034-01-02T18:00:00", "2034-01-03T18:00:00", "2034-01-04T18:00:00", "2034-01-05T18:00:00"] as Array<
          LocalDateTime
        >,
        "2034-01-05T18:00:00" as LocalDateTime
      )
      expect(series.occurrences.map((o) => o.occurrenceStart)).toEqual([
        "2034-01-02T18:00:00",
        "2034-01-03T18:00:00",
        "2034-01-04T18:00:00",
        "2034-01-05T18:00:00"
      ])
      for (const occurrence of series.occurrences) expect(occurrence.sessionId).toBeGreaterThanOrEqual(next + 3)
    }))

  it.effect("a planned session steps over an id taken behind the sequence's back", () =>
    Effect.gen(function*() {
      const next = yield* takeNextIds(2)
      const { id } = yield* (yield* SeriesRepository).createSession(
        new PlannedSessionCreate({
          name: "Stepping over",
          groupe: null,
          coachId: null,
          athleteIds: [],
          duree: 30,
          creneau: "2034-02-01T10:00:00" as LocalDateTime
        })
      )
      expect(id).toBe(next + 2)
    }))
})
