import { NoticeRepository, NoticeSettings, type ReminderTiming, RetentionRepository } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { writeEvents } from "../src/webhooks/outbox.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * Issue 42: notices written with the outbox's events (only when mail is on), claimed with leases,
 * settled, and reminders written on the database's clock. Each test makes records of its own.
 */

let serial = 0
const unique = (prefix: string) => `${prefix}-${++serial}-${Math.random().toString(36).slice(2, 8)}`

const idOf = (rows: ReadonlyArray<Record<string, unknown>>) => Number(rows[0]!["id"])

const athlete = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return idOf(yield* sql`INSERT INTO athletes (name) VALUES (${unique("athlete")}) RETURNING id`)
})

/** A user, with an email unless `email` is null, linked to `athleteId` when given. */
const user = (athleteId: number | null, email: string | null = `${unique("u")}@club.test`) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return idOf(
      yield* sql`INSERT INTO users (name, email, role, password_hash, athlete_id)
        VALUES (${unique("user")}, ${email}, ${athleteId === null ? "COACH" : "ATHLETE"}, 'x', ${athleteId}::bigint)
        RETURNING id`
    )
  })

const guardian = (userId: number, athleteId: number) =>
  Effect.flatMap(
    Effect.service(SqlClient.SqlClient),
    (sql) => sql`INSERT INTO guardianships (user_id, athlete_id) VALUES (${userId}, ${athleteId})`
  )

/** A session whose `creneau` is the club's wall clock now plus `offset` (an SQL interval), with `athleteIds`. */
const session = (offset: string, athleteIds: ReadonlyArray<number>, groupe: string | null = null) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = idOf(
      yield* sql`INSERT INTO sessions (name, creneau, duree, groupe)
        VALUES (${unique("session")}, (now() AT TIME ZONE 'Europe/Paris') + ${offset}::interval, 60, ${groupe})
        RETURNING id`
    )
    for (const athleteId of athleteIds) {
      yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (${id}, ${athleteId})`
    }
    return id
  })

interface NoticeRow {
  readonly dedupe_key: string
  readonly event_id: number | null
  readonly user_id: number
  readonly athlete_id: number
  readonly kind: string
  readonly status: string
  readonly attempts: number
}

const noticesOf = (sessionId: number) =>
  Effect.flatMap(
    Effect.service(SqlClient.SqlClient),
    (sql) =>
      sql<NoticeRow>`SELECT dedupe_key, event_id::float8 AS event_id, user_id::float8 AS user_id,
          athlete_id::float8 AS athlete_id, kind, status, attempts
        FROM notices WHERE session_id = ${sessionId} ORDER BY user_id`
  )

const promote = (sessionId: number, athleteId: number, queueNotices: boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(writeEvents(sql, [
      { sessionId, type: "reply", data: { athleteId } },
      { sessionId, type: "promotion", data: { athleteId } }
    ]))
  }).pipe(Effect.provideService(NoticeSettings, { queueNotices }))

const timing: ReminderTiming = {
  leadMs: 2 * 3_600_000,
  windowMs: 90 * 60_000,
  timeZone: "Europe/Paris",
  limit: 100
}

onEachDatabase("Notices (issue 42)", (it) => {
  it.effect("a promotion queues one notice for the athlete's user and each guardian with an email, in the event's statement", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const promoted = yield* athlete
      const own = yield* user(promoted)
      const parent = yield* user(null)
      const silent = yield* user(null, null)
      yield* guardian(parent, promoted)
      yield* guardian(silent, promoted)
      const sessionId = yield* session("3 days", [promoted])
      yield* promote(sessionId, promoted, true)
      const [event] = yield* sql<{ id: number }>`SELECT id::float8 AS id FROM attendance_events
        WHERE session_id = ${sessionId} AND type = 'promotion'`
      const rows = yield* noticesOf(sessionId)
      expect(rows).toEqual(
        [own, parent].sort((a, b) => a - b).map((userId) => ({
          dedupe_key: `${event!.id}:${userId}`,
          event_id: event!.id,
          user_id: userId,
          athlete_id: promoted,
          kind: "promoted",
          status: "pending",
          attempts: 0
        }))
      )
    }))

  it.effect("a notice already written for the same event and person (a replay) is left as it is, nothing added", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const promoted = yield* athlete
      const own = yield* user(promoted)
      const parent = yield* user(null)
      yield* guardian(parent, promoted)
      const sessionId = yield* session("3 days", [promoted])
      // The promotion below is the second event after this value: its notice to `own` exists already.
      const [taken] = yield* sql<
        { id: number }
      >`SELECT nextval(pg_get_serial_sequence('attendance_events', 'id'))::float8 AS id`
      const eventId = taken!.id + 2
      yield* sql`INSERT INTO notices (dedupe_key, user_id, athlete_id, session_id, kind, status)
        VALUES (${`${eventId}:${own}`}, ${own}, ${promoted}, ${sessionId}, 'promoted', 'sent')`
      yield* promote(sessionId, promoted, true)
      const rows = yield* noticesOf(sessionId)
      expect(rows.map((r) => [r.dedupe_key, r.user_id, r.event_id, r.status])).toEqual(
        [[`${eventId}:${own}`, own, null, "sent"], [`${eventId}:${parent}`, parent, eventId, "pending"]].sort((p, q) =>
          (p[1] as number) - (q[1] as number)
        )
      )
    }))

  it.effect("mail off queues nothing; the event and its webhook deliveries are written as before", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const promoted = yield* athlete
      yield* user(promoted)
      const sessionId = yield* session("3 days", [promoted])
      yield* promote(sessionId, promoted, false)
      expect(yield* noticesOf(sessionId)).toEqual([])
      const [events] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM attendance_events
        WHERE session_id = ${sessionId}`
      expect(events!.count).toBe(2)
    }))

  it.effect("a notice is claimed by one owner at a time, held by its lease, retried after its delay, sent once", () =>
    Effect.gen(function*() {
      const notices = yield* NoticeRepository
      const sql = yield* SqlClient.SqlClient
      // Notices of other tests are settled first, so the claims below see this test's own.
      yield* sql`UPDATE notices SET status = 'sent'`
      const promoted: Array<number> = []
      for (let i = 0; i < 6; i++) {
        const id = yield* athlete
        yield* user(id)
        promoted.push(id)
      }
      const sessionId = yield* session("3 days", promoted)
      for (const id of promoted) yield* promote(sessionId, id, true)
      const [a, b] = yield* Effect.all([notices.claim("a", 60_000, 4), notices.claim("b", 60_000, 4)], {
        concurrency: 2
      })
      const claimedIds = [...a, ...b].map((n) => n.id)
      expect(claimedIds.length).toBe(6)
      expect(new Set(claimedIds).size).toBe(6)
      expect(yield* notices.claim("c", 60_000, 10)).toEqual([])
      const first = a[0] ?? b[0]!
      const ownerOfFirst = a.length > 0 ? "a" : "b"
      expect(first).toMatchObject({
        kind: "promoted",
        attempt: 1,
        forGuardian: false,
        sessionId,
        athleteReplied: false,
        forSeries: false,
        previousStart: null
      })
      // Another owner's settle changes nothing.
      yield* notices.settle("c", first.id, { _tag: "sent" })
      yield* notices.settle(ownerOfFirst, first.id, { _tag: "retry", error: "451", delayMs: 200 })
      expect(yield* notices.claim("c", 60_000, 10)).toEqual([])
      yield* Effect.sleep("400 millis")
      const again = yield* notices.claim("c", 60_000, 10)
      expect(again.map((n) => [n.id, n.attempt])).toEqual([[first.id, 2]])
      yield* notices.settle("c", first.id, { _tag: "sent" })
      const [row] = yield* sql<{ status: string; attempts: number; last_error: string }>`SELECT status, attempts,
          last_error FROM notices WHERE id = ${first.id}`
      expect(row).toEqual({ status: "sent", attempts: 2, last_error: "451" })
      // A lease that ends unsettled (an instance killed) lets another owner claim the notice.
      const rest = [...a, ...b].filter((n) => n.id !== first.id)
      yield* sql`UPDATE notices SET leased_until = now() - interval '1 second' WHERE id = ${rest[0]!.id}`
      const taken = yield* notices.claim("d", 60_000, 10)
      expect(taken.map((n) => [n.id, n.attempt])).toEqual([[rest[0]!.id, 2]])
      yield* notices.settle("d", rest[0]!.id, { _tag: "failed", error: "550" })
      yield* notices.release("a", rest[1]!.id)
      for (const n of rest.slice(2)) yield* notices.settle("a", n.id, { _tag: "suppressed", reason: "muted" })
      yield* notices.settle("b", rest[1]!.id, { _tag: "sent" })
      const statuses = yield* sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM notices
        WHERE session_id = ${sessionId} GROUP BY status ORDER BY status`
      expect(statuses.length).toBeGreaterThan(0)
      expect(statuses.find((s) => s.status === "failed")?.n).toBe(1)
    }))

  it.effect("reminders: once per non-replier's user and guardian, group members included, none after the window", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const notices = yield* NoticeRepository
      const silent = yield* athlete
      const replied = yield* athlete
      const member = yield* athlete
      const silentUser = yield* user(silent)
      const parent = yield* user(null)
      yield* guardian(parent, silent)
      yield* user(replied)
      const memberUser = yield* user(member)
      const groupe = unique("group")
      const [group] = yield* sql<{ id: number }>`INSERT INTO groups (name, parent_id)
        SELECT ${groupe}, (SELECT id FROM groups WHERE parent_id IS NULL) RETURNING id::float8 AS id`
      yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date) VALUES (${
        group!.id
      }, ${member}, '2000-01-01')`
      // Its cut-off (its start) an hour ahead: the reminder's moment, two hours before, passed an hour ago.
      const due = yield* session("1 hour", [silent, replied], groupe)
      yield* sql`INSERT INTO session_replies (session_id, athlete_id, answer, state, replied_by)
        VALUES (${due}, ${replied}, 'no', 'declined', 1)`
      // A cut-off of its own ten minutes ahead: the moment passed 110 minutes ago, beyond the window.
      const late = yield* session("1 day", [silent])
      yield* sql`INSERT INTO session_attendance (session_id, reply_cutoff)
        VALUES (${late}, (now() AT TIME ZONE 'Europe/Paris') + interval '10 minutes')`
      // Five hours ahead: not yet.
      const ahead = yield* session("5 hours", [silent])
      // Two instances ticking at once.
      const [x, y] = yield* Effect.all([notices.writeReminders(timing), notices.writeReminders(timing)], {
        concurrency: 2
      })
      expect(x + y).toBeGreaterThanOrEqual(3)
      expect(yield* notices.writeReminders(timing)).toBe(0)
      const rows = yield* noticesOf(due)
      expect(rows.map((r) => [r.dedupe_key, r.user_id, r.athlete_id, r.kind, r.event_id])).toEqual(
        [
          [`reminder:${due}:${silentUser}`, silentUser, silent, "reminder", null],
          [`reminder:${due}:${parent}`, parent, silent, "reminder", null],
          [`reminder:${due}:${memberUser}`, memberUser, member, "reminder", null]
        ].sort((p, q) => (p[1] as number) - (q[1] as number))
      )
      expect(yield* noticesOf(late)).toEqual([])
      expect(yield* noticesOf(ahead)).toEqual([])
      // A reply after the reminder was written: the claim says so, and the worker does not send it.
      yield* sql`INSERT INTO session_replies (session_id, athlete_id, answer, state, replied_by)
        VALUES (${due}, ${silent}, 'no', 'declined', 1)`
      const claimed = (yield* notices.claim("r", 60_000, 100)).filter((n) => n.sessionId === due)
      expect(claimed.map((n) => [n.recipientUserId, n.kind, n.athleteReplied]).sort()).toEqual(
        [[silentUser, "reminder", true], [parent, "reminder", true], [memberUser, "reminder", false]].sort()
      )
      expect(claimed.find((n) => n.recipientUserId === parent)?.forGuardian).toBe(true)
    }))

  it.effect("reminders are written in bounded batches, a backlog over several calls", () =>
    Effect.gen(function*() {
      const notices = yield* NoticeRepository
      const athletes: Array<number> = []
      for (let i = 0; i < 5; i++) {
        const id = yield* athlete
        yield* user(id)
        athletes.push(id)
      }
      const sessionId = yield* session("90 minutes", athletes)
      const small = { ...timing, limit: 2 }
      const counts = [
        yield* notices.writeReminders(small),
        yield* notices.writeReminders(small),
        yield* notices.writeReminders(small),
        yield* notices.writeReminders(small)
      ]
      expect(counts.slice(0, 2)).toEqual([2, 2])
      expect((yield* noticesOf(sessionId)).length).toBe(5)
    }))

  it.effect("a cancelled session, gone with the event, tells whom it invited, its title and start kept on the notice", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const notices = yield* NoticeRepository
      const own = yield* athlete
      const member = yield* athlete
      const ownUser = yield* user(own)
      const memberUser = yield* user(member)
      const group = unique("group")
      yield* sql`INSERT INTO groups (name) SELECT ${unique("root")} WHERE NOT EXISTS
        (SELECT 1 FROM groups WHERE parent_id IS NULL)`
      const [team] = yield* sql<{ id: number }>`INSERT INTO groups (name, parent_id)
        SELECT ${group}, id FROM groups WHERE parent_id IS NULL RETURNING id::float8 AS id`
      yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date) VALUES (${
        team!.id
      }, ${member}, '2099-01-01')`
      const sessionId = yield* session("3 days", [own], group)
      yield* sql`DELETE FROM sessions WHERE id = ${sessionId}`
      yield* sql.withTransaction(writeEvents(sql, [{
        sessionId,
        type: "sessionCancelled",
        data: {
          name: "Relay",
          creneau: "2099-06-02T18:30:00",
          duree: 60,
          seriesId: null,
          groupe: group,
          athleteIds: [own]
        }
      }])).pipe(Effect.provideService(NoticeSettings, { queueNotices: true }))
      const rows = yield* sql<{ user_id: number; session_id: number | null; former: number; title: string }>`SELECT
          user_id::float8 AS user_id, session_id, former_session_id::float8 AS former, session_title AS title
        FROM notices WHERE former_session_id = ${sessionId} ORDER BY user_id`
      expect(rows).toEqual(
        [ownUser, memberUser].sort((a, b) => a - b).map((userId) => ({
          user_id: userId,
          session_id: null,
          former: sessionId,
          title: "Relay"
        }))
      )
      const claimed = (yield* notices.claim("c", 60_000, 100)).filter((n) => n.sessionId === sessionId)
      expect(claimed.map((n) => [n.kind, n.sessionTitle, n.sessionStart])).toEqual([
        ["sessionCancelled", "Relay", "2099-06-02T18:30:00"],
        ["sessionCancelled", "Relay", "2099-06-02T18:30:00"]
      ])
    }))

  it.effect("the retention purge takes settled notices past their period, never a pending one", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const retention = yield* RetentionRepository
      const promoted = yield* athlete
      const own = yield* user(promoted)
      const sessionId = yield* session("3 days", [promoted])
      for (const status of ["sent", "failed", "suppressed", "pending"]) {
        yield* sql`INSERT INTO notices (dedupe_key, user_id, athlete_id, session_id, kind, status, created_at)
          VALUES (${
          unique("old")
        }, ${own}, ${promoted}, ${sessionId}, 'promoted', ${status}, now() - interval '400 days')`
      }
      yield* sql`INSERT INTO notices (dedupe_key, user_id, athlete_id, session_id, kind, status)
        VALUES (${unique("new")}, ${own}, ${promoted}, ${sessionId}, 'promoted', 'sent')`
      const cutoff = { epochMs: Date.now() - 300 * 86_400_000, clubDay: "2000-01-01" as never }
      // Other tests' notices are recent: only this test's three old settled ones are past the cutoff.
      expect(yield* retention.purge("notices", cutoff, 2)).toBe(2)
      expect(yield* retention.purge("notices", cutoff, 2)).toBe(1)
      expect(yield* retention.purge("notices", cutoff, 2)).toBe(0)
      expect((yield* noticesOf(sessionId)).map((n) => n.status).sort()).toEqual(["pending", "sent"])
    }))

  it.effect("the promotion the refill trigger writes (an athlete taken out of a full session) gets its notices once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const notices = yield* NoticeRepository
      const leaving = yield* athlete
      const waiting = yield* athlete
      const waitingUser = yield* user(waiting)
      const parent = yield* user(null)
      yield* guardian(parent, waiting)
      const sessionId = yield* session("3 days", [leaving, waiting])
      yield* sql`INSERT INTO session_attendance (session_id, capacity) VALUES (${sessionId}, 1)`
      yield* sql`INSERT INTO session_replies (session_id, athlete_id, answer, state, replied_by, yes_order)
        VALUES (${sessionId}, ${leaving}, 'yes', 'confirmed', 1, 1), (${sessionId}, ${waiting}, 'yes', 'waiting', 1, 2)`
      // The athlete leaves the session: the trigger confirms the one waiting and writes its promotion.
      yield* sql`DELETE FROM session_athletes WHERE session_id = ${sessionId} AND athlete_id = ${leaving}`
      expect(yield* noticesOf(sessionId)).toEqual([])
      yield* notices.writeMissedPromotions(3_600_000, 100)
      const rows = yield* noticesOf(sessionId)
      expect(rows.map((r) => [r.user_id, r.athlete_id, r.kind])).toEqual(
        [[waitingUser, waiting, "promoted"], [parent, waiting, "promoted"]].sort((a, b) =>
          (a[0] as number) - (b[0] as number)
        )
      )
      // Again, or by another instance: nothing more.
      expect(yield* notices.writeMissedPromotions(3_600_000, 100)).toBe(0)
      expect((yield* noticesOf(sessionId)).length).toBe(2)
    }))
})
