import {
  ActivityRepository,
  ActivityWrite,
  activityEvent,
  type AthleteId,
  type LocalDateTime,
  type NewEvent,
  NoticeSettings,
  SessionCreate,
  SessionId,
  SessionRepository,
  sessionChanged,
  sessionCreated
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { countStatements } from "../src/testing/index.ts"
import { writeEvents } from "../src/webhooks/outbox.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * A session create and update write their event, its webhook deliveries and its notices in the
 * write's own statement (decision 0317): the same as `writeEvents` writes for the same event in a
 * statement of its own after the write, which reads the session as stored (the way they were
 * written before).
 */

const idOf = (rows: ReadonlyArray<Record<string, unknown>>) => Number(rows[0]!["id"])

const athlete = (name: string) =>
  Effect.flatMap(
    Effect.service(SqlClient.SqlClient),
    (sql) => Effect.map(sql`INSERT INTO athletes (name) VALUES (${name}) RETURNING id`, idOf)
  )

/** A user with an email, linked to `athleteId` (an athlete's own user) or a guardian of it. */
const userOf = (athleteId: number, how: "own" | "guardian") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const name = `${how}-${athleteId}`
    const id = idOf(
      yield* sql`INSERT INTO users (name, email, role, password_hash, athlete_id)
        VALUES (${name}, ${`${name}@club.test`}, ${how === "own" ? "ATHLETE" : "COACH"}, 'x',
          ${how === "own" ? athleteId : null}::bigint)
        RETURNING id`
    )
    if (how === "guardian") yield* sql`INSERT INTO guardianships (user_id, athlete_id) VALUES (${id}, ${athleteId})`
    return id
  })

interface Told {
  readonly event: number
  readonly type: string
  readonly data: unknown
  readonly deliveries: number
  /** `user:athlete:kind:session`, sorted. */
  readonly notices: ReadonlyArray<string>
}

/** Each event of the session, oldest first, with its deliveries and its notices. */
const toldOf = (sessionId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* sql<
      { id: number; type: string; data: unknown; deliveries: number }
    >`SELECT e.id::float8 AS id,
        e.type, e.data,
        (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
      FROM attendance_events e WHERE e.session_id = ${sessionId} ORDER BY e.id`
    const told: Array<Told> = []
    for (const event of events) {
      const notices = yield* sql<{ notice: string }>`SELECT user_id || ':' || athlete_id || ':' || kind || ':' ||
          COALESCE(session_id::text, '-') AS notice
        FROM notices WHERE event_id = ${event.id} ORDER BY 1`
      told.push({ event: event.id, ...event, notices: notices.map((n) => n.notice) })
    }
    return told
  })

/** What an event told, without its id. */
const asTold = ({ data, deliveries, notices, type }: Told) => ({ type, data, deliveries, notices })

/** Two webhooks registered: every event is delivered to each. */
const twoWebhooks = Effect.flatMap(
  Effect.service(SqlClient.SqlClient),
  (sql) =>
    sql`INSERT INTO webhooks (url, secret) VALUES ('http://one.test/hook', 'a secret of sixteen'),
      ('http://two.test/hook', 'another secret of sixteen')`
)

onEachDatabase("A session write's event in its own statement", (it) => {
  it.effect("create and update tell the same event, deliveries and notices as the outbox's own statement after them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      yield* twoWebhooks
      // Own athletes (one with a guardian too, one also a member), members of the group on the
      // session's day, one whose membership ended before it, one own athlete without a user.
      const own = yield* athlete("own")
      const guarded = yield* athlete("guarded")
      const ownAndMember = yield* athlete("own and member")
      const member = yield* athlete("member")
      const former = yield* athlete("former member")
      const silent = yield* athlete("no user")
      for (const id of [own, guarded, ownAndMember, member, former]) yield* userOf(id, "own")
      yield* userOf(guarded, "guardian")
      yield* userOf(ownAndMember, "guardian")
      const [root] = yield* sql<{ id: number }>`INSERT INTO groups (name) VALUES ('Club') RETURNING id::float8 AS id`
      const [group] = yield* sql<{ id: number }>`INSERT INTO groups (name, parent_id) VALUES ('G', ${root!.id})
        RETURNING id::float8 AS id`
      yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date, until_date) VALUES
        (${group!.id}, ${member}, '2031-01-01', NULL), (${group!.id}, ${ownAndMember}, '2031-01-01', NULL),
        (${group!.id}, ${former}, '2030-01-01', '2031-02-01')`

      const created = yield* countStatements(sessions.create(
        new SessionCreate({
          id: null,
          name: "Piste",
          isRecurrent: false,
          creneau: "2031-03-04T18:30:00" as LocalDateTime,
          duree: 60,
          groupe: "G",
          coachId: null,
          athleteIds: [own, guarded, ownAndMember, silent, own].map((id) => id as AthleteId),
          activiteIds: []
        })
      ))
      const session = created.result
      // The session, its athletes and its event, deliveries and notices: one statement.
      expect(created.statements).toHaveLength(1)
      expect(session.athleteIds).toEqual([own, guarded, ownAndMember, silent].sort((a, b) => a - b))

      const changed = yield* countStatements(
        sessions.update(session.id, { duree: 90, athleteIds: [own, member].map((id) => id as AthleteId) })
      )
      expect(changed.statements).toHaveLength(2)
      // An edit that neither moves nor resizes it is told too, to no one by notice (decision 0284).
      yield* sessions.update(session.id, { athleteIds: [guarded as AthleteId] })

      const told = yield* toldOf(session.id)
      expect(told.map((event) => event.type)).toEqual(["sessionCreated", "sessionChanged", "sessionChanged"])
      expect(told[0]!.data).toEqual(sessionCreated({ ...session, seriesId: null }).data)
      expect(told[1]!.data).toEqual(
        sessionChanged({ ...changed.result, seriesId: null }, { creneau: session.creneau, duree: 60 }).data
      )
      expect(told.map((event) => event.deliveries)).toEqual([2, 2, 2])
      expect(told[0]!.notices.length).toBeGreaterThan(0)
      expect(told[1]!.notices.length).toBeGreaterThan(0)
      expect(told[2]!.notices).toEqual([])

      // The outbox's own statement, after each write, as the writes did before: the same told.
      // The session is put back as each write left it, so that it reads the same invitees.
      const byItself = Effect.fnUntraced(function*(event: NewEvent, athleteIds: ReadonlyArray<number>) {
        yield* sql`DELETE FROM session_athletes WHERE session_id = ${session.id}`
        for (const id of athleteIds) {
          yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (${session.id}, ${id})`
        }
        yield* sql.withTransaction(writeEvents(sql, [event]))
      })
      yield* byItself(sessionCreated({ ...session, seriesId: null }), session.athleteIds)
      yield* byItself(
        sessionChanged({ ...changed.result, seriesId: null }, { creneau: session.creneau, duree: 60 }),
        changed.result.athleteIds
      )
      const again = (yield* toldOf(session.id)).filter((event) =>
        event.event > told[2]!.event && event.type.startsWith("session")
      )
      expect(again.map(asTold)).toEqual(told.slice(0, 2).map(asTold))
    }).pipe(Effect.provideService(NoticeSettings, { queueNotices: true })))

  it.effect("session creates of one turn write, in their one statement, each its own event, deliveries and notices, as the outbox's statement after each would", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      yield* twoWebhooks
      const own = yield* athlete("gathered own")
      const guarded = yield* athlete("gathered guarded")
      const member = yield* athlete("gathered member")
      const otherMember = yield* athlete("gathered other member")
      for (const id of [own, guarded, member, otherMember]) yield* userOf(id, "own")
      yield* userOf(guarded, "guardian")
      // The club's one root group, made by the test before if it ran.
      const [root] = yield* sql<{ id: number }>`WITH made AS (INSERT INTO groups (name) VALUES ('Gathered club')
          ON CONFLICT DO NOTHING RETURNING id)
        SELECT id::float8 AS id FROM made UNION ALL SELECT id::float8 FROM groups WHERE parent_id IS NULL LIMIT 1`
      const [first] = yield* sql<{ id: number }>`INSERT INTO groups (name, parent_id) VALUES ('GA', ${root!.id})
        RETURNING id::float8 AS id`
      const [second] = yield* sql<{ id: number }>`INSERT INTO groups (name, parent_id) VALUES ('GB', ${root!.id})
        RETURNING id::float8 AS id`
      yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date, until_date) VALUES
        (${first!.id}, ${member}, '2031-01-01', NULL), (${second!.id}, ${otherMember}, '2031-01-01', NULL)`
      const create = (name: string, groupe: string | null, athleteIds: ReadonlyArray<number>) =>
        new SessionCreate({
          id: null,
          name,
          isRecurrent: false,
          creneau: "2031-03-04T18:30:00" as LocalDateTime,
          duree: 60,
          groupe,
          coachId: null,
          athleteIds: athleteIds.map((id) => id as AthleteId),
          activiteIds: []
        })
      const asked = [
        create("first group", "GA", [own, guarded, own]),
        create("no one", null, []),
        create("second group", "GB", [guarded]),
        create("first group again", "GA", [otherMember])
      ]
      const created = yield* countStatements(
        Effect.forEach(asked, (input) => sessions.create(input), { concurrency: "unbounded" })
      )
      // The four sessions, their athletes and their events, deliveries and notices: one statement.
      expect(created.statements).toHaveLength(1)
      expect(created.result.map((session) => session.athleteIds)).toEqual([
        [own, guarded].sort((a, b) => a - b),
        [],
        [guarded],
        [otherMember]
      ])
      const told = yield* Effect.forEach(created.result, (session) => toldOf(session.id))
      expect(told.map((events) => events.map((event) => event.type))).toEqual(
        created.result.map(() => ["sessionCreated"])
      )
      expect(told.map((events) => events[0]!.data)).toEqual(
        created.result.map((session) => sessionCreated({ ...session, seriesId: null }).data)
      )
      const [registered] = yield* sql<{ webhooks: number }>`SELECT count(*)::int AS webhooks FROM webhooks`
      expect(told.map((events) => events[0]!.deliveries)).toEqual(created.result.map(() => registered!.webhooks))
      expect(told[0]![0]!.notices.length).toBeGreaterThan(0)
      expect(told[3]![0]!.notices.length).toBeGreaterThan(0)
      // The outbox's own statement after each create, reading the session as stored: the same told.
      for (const [index, session] of created.result.entries()) {
        yield* sql.withTransaction(writeEvents(sql, [sessionCreated({ ...session, seriesId: null })]))
        const again = (yield* toldOf(session.id)).slice(1)
        expect(again.map(asTold)).toEqual(told[index]!.map(asTold))
      }
    }).pipe(Effect.provideService(NoticeSettings, { queueNotices: true })))

  it.effect("a create refused by its statement keeps nothing: no session, no event, no delivery", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* SessionRepository
      const counts = sql<{ sessions: number; events: number; deliveries: number }>`SELECT
          (SELECT count(*)::int FROM sessions) AS sessions,
          (SELECT count(*)::int FROM attendance_events) AS events,
          (SELECT count(*)::int FROM webhook_deliveries) AS deliveries`
      const before = yield* counts
      const refused = yield* Effect.flip(sessions.create(
        new SessionCreate({
          id: null,
          name: "refused",
          isRecurrent: false,
          creneau: null,
          duree: null,
          groupe: null,
          coachId: null,
          athleteIds: [999_999 as AthleteId],
          activiteIds: []
        })
      ))
      expect(refused._tag).toBe("UnknownReferences")
      expect(yield* counts).toEqual(before)
    }).pipe(Effect.provideService(NoticeSettings, { queueNotices: true })))

  it.effect("activity creates of one turn write, in their one statement, each its own event: core's, with its id, in its session, delivered to each webhook", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const activities = yield* ActivityRepository
      yield* twoWebhooks
      const sessionIds = [
        idOf(yield* sql`INSERT INTO sessions (name) VALUES ('first') RETURNING id`),
        idOf(yield* sql`INSERT INTO sessions (name) VALUES ('second') RETURNING id`)
      ]
      const inputs = Array.from({ length: 7 }, (_, i) =>
        new ActivityWrite({
          name: i === 3 ? "lone \ud800 surrogate" : `drill ${i}`,
          theme: i % 2 === 0 ? null : "endurance",
          duree: i === 5 ? null : 10 + i,
          dataActivite: ["cones"],
          sessionId: SessionId.make(sessionIds[i % 2]!)
        }))
      const statements = yield* countStatements(
        Effect.forEach(inputs, (input) => activities.create(input), { concurrency: "unbounded" })
      )
      const created = statements.result
      // Gathered: one statement for the seven, their rows and their events.
      expect(statements.statements).toHaveLength(1)
      const events = yield* sql<{ session: number; type: string; data: unknown; deliveries: number }>`SELECT
          e.session_id::float8 AS session, e.type, e.data,
          (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
        FROM attendance_events e
        WHERE e.type = 'activityCreated' AND e.session_id = ANY(${sessionIds.map(BigInt)}::bigint[]) ORDER BY e.id`
      const [registered] = yield* sql<{ webhooks: number }>`SELECT count(*)::int AS webhooks FROM webhooks`
      expect(events).toEqual(created.map((activity) => {
        const event = activityEvent("activityCreated", activity)
        return { session: event.sessionId, type: event.type, data: event.data, deliveries: registered!.webhooks }
      }))
      expect(created.map((activity) => activity.name)).toContain("lone \ufffd surrogate")
    }))
})
