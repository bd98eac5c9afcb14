import { AthleteCreate, AthleteRepository, type AthleteId, SessionRepository, type SessionId } from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"
import { newSession } from "../../core/test/repositoryContract/fixtures.ts"
import { Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"

const InstancesLive = instancesLive({ maxConnectionsOfB: 10 })

describe.skipIf(!serverAvailable)(
  "Session creates racing the delete of an athlete they list [PostgreSQL server]",
  () => {
    layer(InstancesLive, { timeout: "3 minutes", excludeTestServices: true })((it) => {
      it.effect("each create either writes the session with the athlete (then the delete takes the membership) or is refused naming the athlete; no create fails otherwise and no membership is left without its athlete", () =>
        Effect.gen(function*() {
          const { a, b } = yield* Instances
          const onA = <A, E>(effect: Effect.Effect<A, E, InstanceServices>) => Effect.provide(effect, a)
          const onB = <A, E>(effect: Effect.Effect<A, E, InstanceServices>) => Effect.provide(effect, b)
          const newAthlete = (name: string) =>
            onA(Effect.flatMap(
              Effect.service(AthleteRepository),
              (athletes) =>
                Effect.map(
                  athletes.create(new AthleteCreate({ id: null, name, categorie: null, niveau: null })),
                  (athlete) => athlete.id
                )
            ))
          const written: Array<SessionId> = []
          for (let round = 0; round < 20; round++) {
            const stays = yield* newAthlete(`stays ${round}`)
            const goes: AthleteId = yield* newAthlete(`goes ${round}`)
            const creates = Array.from({ length: 8 }, (_, i) =>
              onB(Effect.flatMap(
                Effect.service(SessionRepository),
                (sessions) =>
                  Effect.exit(sessions.create(newSession({ name: `race ${round}.${i}`, athleteIds: [stays, goes] })))
              )))
            const remove = onA(Effect.flatMap(Effect.service(AthleteRepository), (athletes) => athletes.delete(goes)))
            const [exits] = yield* Effect.all([Effect.all(creates, { concurrency: "unbounded" }), remove], {
              concurrency: "unbounded"
            })
            for (const exit of exits) {
              if (Exit.isSuccess(exit)) {
                expect(exit.value.athleteIds).toContain(stays)
                written.push(exit.value.id)
              } else {
                const failure = yield* Effect.flip(exit)
                expect(failure).toMatchObject({ _tag: "UnknownReferences", field: "athleteIds", ids: [goes] })
              }
            }
          }
          const orphans = yield* onA(Effect.flatMap(
            Effect.service(SqlClient.SqlClient),
            (sql) =>
              sql<{ count: number }>`SELECT count(*)::int AS count FROM session_athletes sa
              WHERE NOT EXISTS (SELECT 1 FROM athletes a WHERE a.id = sa.athlete_id)`
          ))
          expect(orphans[0]!.count).toBe(0)
          // A session written before the delete keeps its other athlete, and only that one.
          const readBack = yield* onA(Effect.flatMap(
            Effect.service(SessionRepository),
            (sessions) => Effect.forEach(written, (id) => sessions.findById(id))
          ))
          for (const session of readBack) expect(Option.getOrThrow(session).athleteIds).toHaveLength(1)
        }))
    })
  }
)
