import {
  CoachCreate,
  CoachRepository,
  type LocalDateTime,
  PlannedSessionCreate,
  ScheduleConflict,
  SeriesRepository
} from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"
import { Context, Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"

const InstancesLive = instancesLive({ maxConnectionsOfB: 4 })

describe.skipIf(!serverAvailable)("Changes into a double booking across two instances [PostgreSQL server]", () => {
  layer(InstancesLive, { timeout: "2 minutes", excludeTestServices: true })((it) => {
    it.effect("of two sessions moved at once into one slot of a coach through two pools, exactly one moves, 20 times over", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const onA = <X, E>(effect: Effect.Effect<X, E, InstanceServices>) => Effect.provide(effect, a)
        const coach = yield* onA(
          Effect.flatMap(Effect.service(CoachRepository), (r) => r.create(new CoachCreate({ id: null, name: "Moved" })))
        )
        const plan = (creneau: string) =>
          onA(Effect.flatMap(Effect.service(SeriesRepository), (r) =>
            r.createSession(
              new PlannedSessionCreate({
                name: "Race",
                groupe: null,
                coachId: coach.id,
                athleteIds: [],
                duree: 60,
                creneau: creneau as LocalDateTime
              })
            ).pipe(Effect.map((session) => session.id))))
        for (let round = 0; round < 20; round++) {
          const day = new Date(Date.UTC(2029, 0, 1 + round)).toISOString().slice(0, 10)
          const first = yield* plan(`${day}T08:00:00`)
          const second = yield* plan(`${day}T12:00:00`)
          const move = (context: Context.Context<InstanceServices>, id: number, creneau: string) =>
            Effect.exit(Effect.provide(
              Effect.flatMap(
                Effect.service(SeriesRepository),
                (r) => r.changeSession(id as never, { creneau: creneau as LocalDateTime })
              ),
              context
            ))
          const [fromA, fromB] = yield* Effect.all([
            move(a, first, `${day}T18:00:00`),
            move(b, second, `${day}T18:30:00`)
          ], { concurrency: "unbounded" })
          expect([fromA, fromB].map((exit) => Exit.isSuccess(exit) ? "moved" : "refused").sort()).toEqual([
            "moved",
            "refused"
          ])
          const moved = Exit.isSuccess(fromA) ? first : second
          expect(Exit.findErrorOption([fromA, fromB].find(Exit.isFailure)!)).toEqual(
            Option.some(new ScheduleConflict({ sessionIds: [moved] }))
          )
        }
        const sql = Context.get(a, SqlClient.SqlClient)
        const [overlaps] = yield* sql<{ count: string }>`SELECT count(*)::text AS count
          FROM coach_bookings x JOIN coach_bookings y
            ON x.coach_id = y.coach_id AND x.session_id < y.session_id AND x.during && y.during`
        expect(overlaps!.count).toBe("0")
        const [booked] = yield* sql<{ count: string }>`SELECT count(*)::text AS count FROM coach_bookings
          WHERE coach_id = ${coach.id}`
        expect(booked!.count).toBe(String(20 * 2))
      }))
  })
})
