import {
  AthleteCreate,
  type AthleteId,
  AthleteRepository,
  AttendanceRepository,
  AttendanceSettings,
  type LocalDateTime,
  type Reply,
  ReplyInput,
  type ReplyAnswer,
  SessionCreate,
  type SessionId,
  SessionRepository,
  type UserId
} from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { newSession } from "../../core/test/repositoryContract/fixtures.ts"
import { Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"

const InstancesLive = instancesLive({ maxConnectionsOfB: 10 })

const now = "2026-01-01T12:00:00" as LocalDateTime

describe.skipIf(!serverAvailable)("Replies and the waiting list across two instances [PostgreSQL server]", () => {
  layer(InstancesLive, { timeout: "3 minutes", excludeTestServices: true })((it) => {
    it.effect("200 yeses at once to 20 places through two pools: 20 confirmed, 180 waiting in reply order; then a larger capacity and 50 cancellations at once promote exactly 50 each", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const onA = <A, E>(effect: Effect.Effect<A, E, InstanceServices>) => Effect.provide(effect, a)
        const athleteIds = yield* onA(Effect.gen(function*() {
          const athletes = yield* AthleteRepository
          return yield* Effect.forEach(
            Array.from({ length: 200 }, (_, i) => i),
            (i) =>
              Effect.map(
                athletes.create(new AthleteCreate({ id: null, name: `racer ${i}`, categorie: null, niveau: null })),
                (athlete) => athlete.id
              ),
            { concurrency: 8 }
          )
        }))
        const sessionId: SessionId = yield* onA(Effect.flatMap(
          Effect.service(SessionRepository),
          (sessions) => Effect.map(sessions.create(newSession({ athleteIds })), (session) => session.id)
        ))
        const configure = (capacity: number) =>
          onA(Effect.flatMap(
            Effect.service(AttendanceRepository),
            (r) => r.configure(sessionId, new AttendanceSettings({ capacity }))
          ))
        yield* configure(20)

        /** Every athlete's reply at once, alternately through A's pool and B's. */
        const allAtOnce = (athletes: ReadonlyArray<AthleteId>, answer: ReplyAnswer) =>
          Effect.all(
            athletes.map((athleteId, i) =>
              Effect.provide(
                Effect.flatMap(Effect.service(AttendanceRepository), (r) =>
                  r.reply({
                    sessionId,
                    athleteId,
                    input: new ReplyInput({ answer, reason: null }),
                    scope: "one",
                    now,
                    by: 1 as UserId
                  })),
                i % 2 === 0 ? a : b
              )
            ),
            { concurrency: "unbounded" }
          ).pipe(Effect.map((written) => written.map((replies) => replies[0]!)))
        const roster = onA(Effect.flatMap(
          Effect.service(AttendanceRepository),
          (r) => Effect.map(r.replies(sessionId), Option.getOrThrow)
        ))
        const sql = Context.get(a, SqlClient.SqlClient)
        /** The athletes in the order their yes was numbered: the order the replies were written. */
        const yesOrder = Effect.map(
          sql<{ athlete_id: number }>`SELECT athlete_id::float8 AS athlete_id FROM session_replies
            WHERE session_id = ${sessionId} AND answer = 'yes' ORDER BY yes_order`,
          (rows) => rows.map((row) => row.athlete_id as AthleteId)
        )

        const answered: ReadonlyArray<Reply> = yield* allAtOnce(athleteIds, "yes")
        const first = yield* roster
        expect([first.confirmed, first.waiting]).toEqual([20, 180])
        const order = yield* yesOrder
        expect(new Set(order).size).toBe(200)
        const ids = (state: string) => first.replies.filter((r) => r.state === state).map((r) => r.athleteId)
        expect(ids("confirmed")).toEqual(order.slice(0, 20))
        expect(ids("waiting")).toEqual(order.slice(20))
        expect(first.replies.filter((r) => r.state === "waiting").map((r) => r.waitingPosition)).toEqual(
          Array.from({ length: 180 }, (_, i) => i + 1)
        )
        // What each reply answered, in the middle of the race, is where it still stands.
        for (const reply of answered) {
          const now = first.replies.find((r) => r.athleteId === reply.athleteId)!
          expect([reply.state, reply.waitingPosition]).toEqual([now.state, now.waitingPosition])
        }

        // A capacity grown by 50 confirms the first 50 waiting.
        const grown = yield* configure(70)
        expect([grown.confirmed, grown.waiting]).toEqual([70, 130])
        expect(grown.replies.filter((r) => r.state === "confirmed").map((r) => r.athleteId)).toEqual(order.slice(0, 70))

        // 50 confirmed athletes say no at once: exactly the next 50 on the list are confirmed.
        const leaving = order.slice(10, 60)
        const declined = yield* allAtOnce(leaving, "no")
        expect(declined.every((r) => r.state === "declined")).toBe(true)
        const last = yield* roster
        expect([last.confirmed, last.waiting]).toEqual([70, 80])
        const stillIn = [...order.slice(0, 10), ...order.slice(60, 70)]
        const confirmed = last.replies.filter((r) => r.state === "confirmed").map((r) => r.athleteId)
        expect(confirmed).toEqual([...stillIn, ...order.slice(70, 120)])
        expect(last.replies.filter((r) => r.state === "waiting").map((r) => r.athleteId)).toEqual(order.slice(120))
        expect(last.replies.filter((r) => r.state === "declined").map((r) => r.athleteId).sort((x, y) => x - y))
          .toEqual([...leaving].sort((x, y) => x - y))
      }))

    it.effect("members of the session's group (issue 41) race for the last places through two pools: exactly the capacity confirmed, the rest waiting in yes order", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const onA = <A, E>(effect: Effect.Effect<A, E, InstanceServices>) => Effect.provide(effect, a)
        const sql = Context.get(a, SqlClient.SqlClient)
        const athleteIds = yield* onA(Effect.gen(function*() {
          const athletes = yield* AthleteRepository
          return yield* Effect.forEach(
            Array.from({ length: 60 }, (_, i) => i),
            (i) =>
              Effect.map(
                athletes.create(new AthleteCreate({ id: null, name: `member ${i}`, categorie: null, niveau: null })),
                (athlete) => athlete.id
              ),
            { concurrency: 8 }
          )
        }))
        // The group and its memberships, written as the group endpoints will (migration 0024's tables).
        const [own, ...members] = athleteIds
        yield* sql`WITH root AS (
            INSERT INTO groups (name, parent_id) SELECT 'Racing club', NULL
            WHERE NOT EXISTS (SELECT 1 FROM groups WHERE parent_id IS NULL) RETURNING id),
          parent AS (SELECT id FROM root UNION ALL SELECT id FROM groups WHERE parent_id IS NULL),
          racing AS (INSERT INTO groups (name, parent_id) SELECT 'Racers', id FROM parent RETURNING id)
          INSERT INTO memberships (group_id, athlete_id, from_date)
          SELECT racing.id, m, '2026-01-01' FROM racing, unnest(${members.map(String)}::bigint[]) AS m`
        const sessionId: SessionId = yield* onA(Effect.flatMap(
          Effect.service(SessionRepository),
          (sessions) =>
            Effect.map(
              sessions.create(new SessionCreate({ ...newSession({ athleteIds: [own!] }), groupe: "Racers" })),
              (session) => session.id
            )
        ))
        yield* onA(Effect.flatMap(
          Effect.service(AttendanceRepository),
          (r) => r.configure(sessionId, new AttendanceSettings({ capacity: 10 }))
        ))
        // The session's own athlete holds a place first: 9 are left for 59 members.
        yield* onA(Effect.flatMap(Effect.service(AttendanceRepository), (r) =>
          r.reply({
            sessionId,
            athleteId: own!,
            input: new ReplyInput({ answer: "yes", reason: null }),
            scope: "one",
            now,
            by: 1 as UserId
          })))
        const answered = yield* Effect.all(
          members.map((athleteId, i) =>
            Effect.provide(
              Effect.flatMap(Effect.service(AttendanceRepository), (r) =>
                r.reply({
                  sessionId,
                  athleteId,
                  input: new ReplyInput({ answer: "yes", reason: null }),
                  scope: "one",
                  now,
                  by: 1 as UserId
                })),
              i % 2 === 0 ? a : b
            )
          ),
          { concurrency: "unbounded" }
        )
        const roster = yield* onA(Effect.flatMap(
          Effect.service(AttendanceRepository),
          (r) => Effect.map(r.replies(sessionId), Option.getOrThrow)
        ))
        expect([roster.confirmed, roster.waiting]).toEqual([10, 50])
        const order = yield* Effect.map(
          sql<{ athlete_id: number }>`SELECT athlete_id::float8 AS athlete_id FROM session_replies
            WHERE session_id = ${sessionId} AND answer = 'yes' ORDER BY yes_order`,
          (rows) => rows.map((row) => row.athlete_id as AthleteId)
        )
        expect(order[0]).toBe(own)
        expect(roster.replies.filter((r) => r.state === "confirmed").map((r) => r.athleteId)).toEqual(
          order.slice(0, 10)
        )
        expect(roster.replies.filter((r) => r.state === "waiting").map((r) => r.athleteId)).toEqual(order.slice(10))
        for (const [reply] of answered) {
          const standing = roster.replies.find((r) => r.athleteId === reply!.athleteId)!
          expect([reply!.state, reply!.waitingPosition]).toEqual([standing.state, standing.waitingPosition])
        }
      }))
  })
})
