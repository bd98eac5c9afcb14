import {
  CoachCreate,
  CoachRepository,
  type LocalDateTime,
  ScheduleConflict,
  SeriesCreate,
  SeriesRepository
} from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"
import { Context, Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"

const InstancesLive = instancesLive({ maxConnectionsOfB: 4 })

const weekly = (coachId: number, start: string, duree: number) =>
  new SeriesCreate({
    name: "Race",
    groupe: null,
    coachId: coachId as SeriesCreate["coachId"],
    duree,
    start: start as LocalDateTime,
    rrule: "FREQ=WEEKLY;COUNT=4",
    athleteIds: []
  })

const weeksFrom = (start: string) =>
  [0, 7, 14, 21].map((days) =>
    new Date(Date.parse(`${start}Z`) + days * 86_400_000).toISOString().slice(0, 19) as LocalDateTime
  )

describe.skipIf(!serverAvailable)("Double bookings across two instances [PostgreSQL server]", () => {
  layer(InstancesLive, { timeout: "2 minutes", excludeTestServices: true })((it) => {
    it.effect("of two overlapping series for one coach written at once through two pools, exactly one is created, 20 times over", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const coach = yield* Effect.provide(
          Effect.flatMap(
            Effect.service(CoachRepository),
            (r) => r.create(new CoachCreate({ id: null, name: "Raced" }))
          ),
          a
        )
        for (let round = 0; round < 20; round++) {
          // Each round five weeks after the last, clear of the four weeks of earlier rounds.
          const day = new Date(Date.UTC(2028, 0, 3 + 35 * round)).toISOString().slice(0, 10)
          const create = (context: Context.Context<InstanceServices>, start: string) =>
            Effect.exit(Effect.provide(
              Effect.flatMap(
                Effect.service(SeriesRepository),
                (r) => r.create(weekly(coach.id, start, 60), weeksFrom(start), "2031-12-31T00:00:00" as LocalDateTime)
              ),
              context
            ))
          const [fromA, fromB] = yield* Effect.all([
            create(a, `${day}T18:00:00`),
            create(b, `${day}T18:30:00`)
          ], { concurrency: "unbounded" })
          const outcomes = [fromA, fromB].map((exit) => Exit.isSuccess(exit) ? "created" : "refused").sort()
          expect(outcomes).toEqual(["created", "refused"])
          const refused = [fromA, fromB].find(Exit.isFailure)!
          const created = [fromA, fromB].find(Exit.isSuccess)!
          expect(Exit.findErrorOption(refused)).toEqual(
            Option.some(new ScheduleConflict({ sessionIds: created.value.occurrences.map((o) => o.sessionId) }))
          )
        }
        const sql = Context.get(a, SqlClient.SqlClient)
        const [overlaps] = yield* sql<{ count: string }>`SELECT count(*)::text AS count
          FROM coach_bookings x JOIN coach_bookings y
            ON x.coach_id = y.coach_id AND x.session_id < y.session_id AND x.during && y.during`
        expect(overlaps!.count).toBe("0")
        const [booked] = yield* sql<{ count: string }>`SELECT count(*)::text AS count FROM coach_bookings
          WHERE coach_id = ${coach.id}`
        expect(booked!.count).toBe(String(20 * 4))
      }))

    it.effect("the exclusion constraint itself refuses an overlapping booking written by hand", () =>
      Effect.gen(function*() {
        const { b } = yield* Instances
        const sql = Context.get(b, SqlClient.SqlClient)
        const [held] = yield* sql<
          { coach: string; lower: string }
        >`SELECT coach_id::text AS coach, lower(during)::text AS lower
          FROM coach_bookings ORDER BY session_id LIMIT 1`
        const [free] = yield* sql<
          { id: string }
        >`INSERT INTO sessions (name) VALUES ('by hand') RETURNING id::text AS id`
        const exit = yield* Effect.exit(
          sql`INSERT INTO coach_bookings (session_id, coach_id, during)
            VALUES (${free!.id}::bigint, ${held!.coach}::bigint, tstzrange(${held!.lower}::timestamptz, ${
            held!.lower
          }::timestamptz + interval '1 minute'))`
        )
        expect(Exit.isFailure(exit)).toBe(true)
        expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(/coach_bookings|exclusion|conflicting key/u)
      }))
  })
})
