import { type AthleteId, PersonDataRepository, type PersonExportSection, type UserId } from "@club/core"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { keptAfterErasure, leftoversOf } from "../src/testing/index.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"
import { Instances, instancesLive, type InstanceServices, serverAvailable } from "./support/twoInstances.ts"

/**
 * Issue 43: a person with a full history, exported, erased, then every table searched for their
 * texts and ids; what is found is only what docs/privacy.md lists as kept.
 */

const idOf = (rows: ReadonlyArray<Record<string, unknown>>) => Number(rows[0]!["id"])
const tag = () => Math.random().toString(36).slice(2, 8)

/** A person with everything the service can hold about one: answers their ids and texts. */
const fullHistory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = tag()
  const texts = {
    userName: `zquillard${t}`,
    athleteName: `Zéphyrine Quillard ${t}`,
    email: `zephyrine.${t}@family.test`,
    reason: `hospital appointment ${t}`
  }
  const athleteId = idOf(
    yield* sql`INSERT INTO athletes (name, categorie, niveau)
    VALUES (${texts.athleteName}, 'U15', 'regional') RETURNING id`
  )
  const userId = idOf(
    yield* sql`INSERT INTO users (name, email, role, password_hash, athlete_id)
    VALUES (${texts.userName}, ${texts.email}, 'ATHLETE', 'scrypt$stored', ${athleteId}) RETURNING id`
  )
  const adminId = idOf(
    yield* sql`INSERT INTO users (name, role, password_hash)
    VALUES (${`admin-${t}`}, 'ADMIN', 'x') RETURNING id`
  )
  const wardId = idOf(yield* sql`INSERT INTO athletes (name) VALUES (${`ward-${t}`}) RETURNING id`)
  yield* sql`INSERT INTO guardianships (user_id, athlete_id) VALUES (${userId}, ${wardId})`
  const groupId = idOf(
    yield* sql`INSERT INTO groups (name, parent_id)
    VALUES (${`group-${t}`}, (SELECT id FROM groups WHERE parent_id IS NULL)) RETURNING id`
  )
  yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date) VALUES (${groupId}, ${athleteId}, '2026-01-01')`
  const sessionId = idOf(
    yield* sql`INSERT INTO sessions (name, creneau, duree)
    VALUES (${`training-${t}`}, '2026-03-01T18:00:00', 60) RETURNING id`
  )
  yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (${sessionId}, ${athleteId})`
  yield* sql`INSERT INTO session_replies (session_id, athlete_id, answer, reason, state, replied_by)
    VALUES (${sessionId}, ${athleteId}, 'no', ${texts.reason}, 'declined', ${userId})`
  yield* sql`INSERT INTO attendance_marks (session_id, athlete_id, status, marked_by, marked_at)
    VALUES (${sessionId}, ${athleteId}, 'excused', ${adminId}, now())`
  yield* sql`INSERT INTO attendance_mark_history (session_id, athlete_id, status, previous_status, changed_by, changed_at)
    VALUES (${sessionId}, ${athleteId}, 'absent', NULL, ${adminId}, now()),
      (${sessionId}, ${athleteId}, 'excused', 'absent', ${adminId}, now())`
  const hookId = idOf(
    yield* sql`INSERT INTO webhooks (url, secret)
    VALUES ('http://receiver.test/hook', 'ssssssssssssssss') RETURNING id`
  )
  const replyEvent = idOf(
    yield* sql`INSERT INTO attendance_events (session_id, type, data)
    VALUES (${sessionId}, 'reply', ${
      JSON.stringify({ athleteId, answer: "no", reason: texts.reason, state: "declined" })
    }::jsonb) RETURNING id`
  )
  const userEvent = idOf(
    yield* sql`INSERT INTO attendance_events (type, data)
    VALUES ('userCreated', ${
      JSON.stringify({ userId, name: texts.userName, role: "ATHLETE", coachId: null, athleteId, adminId: null })
    }::jsonb) RETURNING id`
  )
  for (const eventId of [replyEvent, userEvent]) {
    yield* sql`INSERT INTO webhook_deliveries (webhook_id, event_id, session_id, pending, attempts)
      SELECT ${hookId}, id, session_id, false, 1 FROM attendance_events WHERE id = ${eventId}`
    yield* sql`INSERT INTO webhook_attempts (webhook_id, event_id, session_id, attempt, at, status_code, delivered, error)
      VALUES (${hookId}, ${eventId}, ${sessionId}, 1, now(), 422, false, ${`rejected ${texts.athleteName}`})`
  }
  yield* sql`INSERT INTO notices (dedupe_key, event_id, user_id, athlete_id, session_id, session_title, kind, status, last_error)
    VALUES (${`${replyEvent}:${userId}`}, ${replyEvent}, ${userId}, ${athleteId}, ${sessionId}, ${`training-${t}`},
      'promoted', 'failed', ${`550 mailbox ${texts.email} unknown`}),
      (${`${userEvent}:${userId}`}, ${userEvent}, ${userId}, ${athleteId}, ${sessionId}, ${`training-${t}`},
      'invitation', 'pending', NULL)`
  yield* sql`INSERT INTO notice_preferences (user_id, language, muted_kinds) VALUES (${userId}, 'fr', '{reminder}')`
  yield* sql`INSERT INTO feed_tokens (user_id, token_hash, issued_at) VALUES (${userId}, ${
    new TextEncoder().encode(`hash-${t}`)
  }, 1)`
  const body = (text: string) => new TextEncoder().encode(JSON.stringify({ name: text }))
  yield* sql`INSERT INTO idempotency_keys (user_id, key, fingerprint, attempt, claimed_at_ms, expires_at_ms, status, headers, body)
    VALUES (${userId}, ${`own-${t}`}, 'f', 'a', 0, 9000000000000, 200, '{}'::jsonb, ${body(texts.userName)}),
      (${adminId}, ${`admin-${t}`}, 'f', 'a', 0, 9000000000000, 201, '{}'::jsonb, ${body(texts.athleteName)}),
      (${adminId}, ${`other-${t}`}, 'f', 'a', 0, 9000000000000, 201, '{}'::jsonb, ${body("someone else")})`
  yield* sql`INSERT INTO login_throttle (key, failures, last_failure_at_ms)
    VALUES (${`name-at-address:${JSON.stringify([texts.userName, "10.0.0.1"])}`}, 2, 0),
      (${"address:10.0.0.1"}, 2, 0) ON CONFLICT (key) DO NOTHING`
  return { userId: userId as UserId, athleteId, adminId, wardId, sessionId, texts }
})

/**
 * A child without a login (no user links the athlete): its guardian replied for it with a reason (the
 * stored answer quotes it) and is told of it; it is a member, invited, marked. Answers ids and texts.
 */
const childHistory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = tag()
  const texts = {
    childName: `Anatole Brisebarre ${t}`,
    reason: `dentist visit ${t}`,
    earlierReason: `school trip ${t}`
  }
  const childId = idOf(
    yield* sql`INSERT INTO athletes (name, categorie) VALUES (${texts.childName}, 'U11') RETURNING id`
  )
  const guardianId = idOf(
    yield* sql`INSERT INTO users (name, email, role, password_hash)
    VALUES (${`parent${t}`}, ${`parent.${t}@family.test`}, 'COACH', 'x') RETURNING id`
  )
  yield* sql`INSERT INTO guardianships (user_id, athlete_id) VALUES (${guardianId}, ${childId})`
  const groupId = idOf(
    yield* sql`INSERT INTO groups (name, parent_id)
    VALUES (${`group-${t}`}, (SELECT id FROM groups WHERE parent_id IS NULL)) RETURNING id`
  )
  yield* sql`INSERT INTO memberships (group_id, athlete_id, from_date) VALUES (${groupId}, ${childId}, '2026-01-01')`
  const sessionId = idOf(
    yield* sql`INSERT INTO sessions (name, creneau, duree) VALUES (${`training-${t}`}, '2026-03-01T18:00:00', 60) RETURNING id`
  )
  yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (${sessionId}, ${childId})`
  yield* sql`INSERT INTO session_replies (session_id, athlete_id, answer, reason, state, replied_by)
    VALUES (${sessionId}, ${childId}, 'no', ${texts.reason}, 'declined', ${guardianId})`
  yield* sql`INSERT INTO attendance_marks (session_id, athlete_id, status, marked_by, marked_at)
    VALUES (${sessionId}, ${childId}, 'excused', ${guardianId}, now())`
  // An earlier reply, whose reason the reply replaced: only its event and its stored answer still tell it.
  yield* sql`INSERT INTO attendance_events (session_id, type, data)
    VALUES (${sessionId}, 'reply', ${
    JSON.stringify({ athleteId: childId, answer: "no", reason: texts.earlierReason, state: "declined" })
  }::jsonb)`
  const replyEvent = idOf(
    yield* sql`INSERT INTO attendance_events (session_id, type, data)
    VALUES (${sessionId}, 'reply', ${
      JSON.stringify({ athleteId: childId, answer: "no", reason: texts.reason, state: "declined" })
    }::jsonb) RETURNING id`
  )
  yield* sql`INSERT INTO notices (dedupe_key, event_id, user_id, athlete_id, session_id, session_title, kind, status)
    VALUES (${`${replyEvent}:${guardianId}`}, ${replyEvent}, ${guardianId}, ${childId}, ${sessionId}, ${`training-${t}`},
      'invitation', 'pending')`
  const body = (reason: string) => new TextEncoder().encode(JSON.stringify([{ athleteId: childId, reason }]))
  yield* sql`INSERT INTO idempotency_keys (user_id, key, fingerprint, attempt, claimed_at_ms, expires_at_ms, status, headers, body)
    VALUES (${guardianId}, ${`reply-${t}`}, 'f', 'a', 0, 9000000000000, 200, '{}'::jsonb, ${body(texts.reason)}),
      (${guardianId}, ${`earlier-${t}`}, 'f', 'a', 0, 9000000000000, 200, '{}'::jsonb, ${body(texts.earlierReason)})`
  return { childId: childId as AthleteId, guardianId: guardianId as UserId, texts }
})

const exported = (userId: UserId) =>
  Effect.gen(function*() {
    const people = yield* PersonDataRepository
    const pages = yield* Stream.runCollect(people.exportPerson(userId, 1))
    const document: Record<string, Array<unknown>> = {}
    for (const page of pages as ReadonlyArray<PersonExportSection>) {
      document[page.section] = [...(document[page.section] ?? []), ...page.rows]
    }
    return document
  })

onEachDatabase("A person's export and erasure (issue 43)", (it) => {
  it.effect("the export holds every piece of a full history, in pages, and never a secret", () =>
    Effect.gen(function*() {
      const person = yield* fullHistory
      const document = yield* exported(person.userId)
      const text = JSON.stringify(document)
      for (const piece of Object.values(person.texts)) expect(text).toContain(piece)
      expect(text).not.toContain("scrypt$stored")
      // The user's row has no password column at all; the audit trail names it only as withheld.
      expect(document["user"]?.[0]).not.toHaveProperty("password_hash")
      expect(text.replaceAll("\"password_hash\":\"(withheld)\"", "")).not.toContain("password_hash")
      expect((document["auditEntries"] ?? []).length).toBeGreaterThan(0)
      expect(document["user"]).toHaveLength(1)
      expect(document["athlete"]).toHaveLength(1)
      expect(document["guardianOf"]).toEqual([{ athleteId: person.wardId }])
      expect(document["memberships"]).toHaveLength(1)
      expect(document["sessionsInvitedTo"]).toHaveLength(1)
      expect(document["replies"]).toHaveLength(1)
      expect(document["marks"]).toHaveLength(1)
      expect(document["markHistory"]).toHaveLength(2)
      expect(document["notices"]).toHaveLength(2)
      expect(document["noticePreferences"]).toHaveLength(1)
      expect(document["feedToken"]).toEqual([{ issuedAt: 1 }])
      expect(document["events"]).toHaveLength(2)
    }))

  it.effect("erasure leaves no text of the person anywhere, their ids only where kept, and a second erasure changes nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const people = yield* PersonDataRepository
      const person = yield* fullHistory
      const before = yield* leftoversOf(sql, Object.values(person.texts), {
        user_id: person.userId,
        athlete_id: person.athleteId
      })
      // The search finds them where the history put them, so that finding nothing afterwards means something.
      const held = new Set(
        before.filter((l) => !l.found.includes("= ") && !l.found.startsWith("\"")).map((l) => l.table)
      )
      for (
        const table of [
          "users",
          "athletes",
          "session_replies",
          "attendance_events",
          "webhook_attempts",
          "notices",
          "idempotency_keys",
          "login_throttle"
        ]
      ) expect(held).toContain(table)

      const erased = yield* people.erase(person.userId, 1)
      expect(erased).toMatchObject({ userId: person.userId, athleteId: person.athleteId, coachId: null })

      const left = yield* leftoversOf(sql, Object.values(person.texts), {
        user_id: person.userId,
        athlete_id: person.athleteId
      })
      expect(left.filter((l) => !l.found.includes("= ") && !l.found.startsWith("\""))).toEqual([])
      expect(left.filter((l) => !keptAfterErasure.has(l.table))).toEqual([])
      // The other caller's answer that never named them stays; the aggregate (the reply's answer) stays.
      const [other] = yield* sql`SELECT count(*)::int AS count FROM idempotency_keys WHERE key LIKE 'other-%'`
      expect(other!["count"]).toBeGreaterThan(0)
      const [reply] = yield* sql`SELECT answer, reason FROM session_replies WHERE athlete_id = ${person.athleteId}`
      expect(reply).toEqual({ answer: "no", reason: null })
      const [notice] =
        yield* sql`SELECT count(*)::int AS count FROM notices WHERE user_id = ${person.userId} AND status = 'pending'`
      expect(notice!["count"]).toBe(0)
      const [user] =
        yield* sql`SELECT email, password_hash, tokens_valid_after::float8 AS after FROM users WHERE id = ${person.userId}`
      expect(user).toMatchObject({ email: null, password_hash: "erased" })
      expect(Number(user!["after"])).toBeGreaterThan(Date.now() / 1000 - 60)
      const told = yield* sql`SELECT data FROM attendance_events WHERE type = 'personErased' AND (data->>'userId') = ${
        String(person.userId)
      }`
      expect(told).toEqual([{
        data: { userId: person.userId, athleteId: person.athleteId, coachId: null, adminId: null }
      }])

      const again = yield* people.erase(person.userId, 1)
      expect(again).toEqual(erased)
      const toldAgain = yield* sql`SELECT count(*)::int AS count FROM attendance_events WHERE type = 'personErased'
        AND (data->>'userId') = ${String(person.userId)}`
      expect(toldAgain[0]!["count"]).toBe(1)
      expect(yield* people.erasures()).toContainEqual(erased)
    }))
})

describe.skipIf(!serverAvailable)("A person's erasure across two instances [PostgreSQL server]", () => {
  layer(instancesLive({ maxConnectionsOfB: 4 }), { timeout: "3 minutes", excludeTestServices: true })((it) => {
    it.effect("two instances erasing the same person at once answer the same erasure and tell it once", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const person = yield* fullHistory.pipe(Effect.provide(a))
        const erase = (instance: Context.Context<InstanceServices>) =>
          Effect.flatMap(Effect.service(PersonDataRepository), (people) => people.erase(person.userId, 1)).pipe(
            Effect.provide(instance)
          )
        const [first, second] = yield* Effect.all([erase(a), erase(b)], { concurrency: "unbounded" })
        expect(second).toEqual(first)
        const sql = Context.get(a, SqlClient.SqlClient)
        const told = yield* sql`SELECT count(*)::int AS count FROM attendance_events WHERE type = 'personErased'
          AND (data->>'userId') = ${String(person.userId)}`
        expect(told[0]!["count"]).toBe(1)
        const left = yield* leftoversOf(sql, Object.values(person.texts), {})
        expect(left).toEqual([])
      }))
  })
})

onEachDatabase("An athlete's person without a user (issue 43, decision 0300)", (it) => {
  it.effect("exports the athlete alone, erases it in batches with no text left, records it with no user, once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const people = yield* PersonDataRepository
      const child = yield* childHistory
      const pages = (yield* Stream.runCollect(people.exportAthlete(child.childId, 1))) as ReadonlyArray<
        PersonExportSection
      >
      const rowsOf = (section: string) => pages.filter((page) => page.section === section).flatMap((page) => page.rows)
      expect(rowsOf("athlete")).toHaveLength(1)
      expect(rowsOf("replies")).toMatchObject([{ reason: child.texts.reason }])
      expect(rowsOf("marks")).toHaveLength(1)
      expect(rowsOf("memberships")).toHaveLength(1)
      expect(rowsOf("guardians")).toEqual([{ userId: child.guardianId }])
      // No user: no user's section matches the guardian (or anyone) by a missing user id.
      for (const section of ["user", "coach", "admin", "guardianOf", "noticePreferences", "feedToken"]) {
        expect(rowsOf(section)).toEqual([])
      }
      expect(rowsOf("notices")).toHaveLength(1)
      expect(rowsOf("events")).toHaveLength(2)

      const before = yield* leftoversOf(sql, Object.values(child.texts), {})
      expect(new Set(before.map((l) => l.table))).toContain("idempotency_keys")
      const erased = yield* people.eraseAthlete(child.childId, 1)
      expect(erased).toMatchObject({ userId: null, athleteId: child.childId, coachId: null, adminId: null })
      const left = yield* leftoversOf(sql, Object.values(child.texts), { athlete_id: child.childId })
      expect(left.filter((l) => !l.found.includes("= ") && !l.found.startsWith("\""))).toEqual([])
      expect(left.filter((l) => !keptAfterErasure.has(l.table))).toEqual([])
      // The guardian is a person of their own: their user stays as it was; their link to the child is gone.
      const [guardian] = yield* sql`SELECT name, password_hash FROM users WHERE id = ${child.guardianId}`
      expect(guardian).toMatchObject({ password_hash: "x" })
      expect(String(guardian!["name"])).toMatch(/^parent/u)
      const told = yield* sql`SELECT data FROM attendance_events WHERE type = 'personErased'
        AND (data->>'athleteId') = ${String(child.childId)}`
      expect(told).toEqual([{ data: { userId: null, athleteId: child.childId, coachId: null, adminId: null } }])

      expect(yield* people.eraseAthlete(child.childId, 1)).toEqual(erased)
      const toldAgain = yield* sql`SELECT count(*)::int AS count FROM attendance_events WHERE type = 'personErased'
        AND (data->>'athleteId') = ${String(child.childId)}`
      expect(toldAgain[0]!["count"]).toBe(1)
      expect(yield* people.erasures()).toContainEqual(erased)
      const missing = yield* Effect.flip(people.eraseAthlete(987_654_321 as AthleteId, 1))
      expect(missing).toMatchObject({ _tag: "EntityNotFound", entity: "Athlete" })
    }))

  it.effect("an athlete a user links is erased as that user: one ledger row, by either address", () =>
    Effect.gen(function*() {
      const people = yield* PersonDataRepository
      const person = yield* fullHistory
      const byAthlete = yield* people.eraseAthlete(person.athleteId as AthleteId, 1)
      expect(byAthlete).toMatchObject({ userId: person.userId, athleteId: person.athleteId })
      expect(yield* people.erase(person.userId, 1)).toEqual(byAthlete)
      expect((yield* people.erasures()).filter((e) => e.athleteId === person.athleteId)).toEqual([byAthlete])
    }))
})

describe.skipIf(!serverAvailable)("An athlete's erasure across two instances [PostgreSQL server]", () => {
  layer(instancesLive({ maxConnectionsOfB: 4 }), { timeout: "3 minutes", excludeTestServices: true })((it) => {
    it.effect("two instances erasing the same athlete alone at once answer the same erasure and tell it once", () =>
      Effect.gen(function*() {
        const { a, b } = yield* Instances
        const child = yield* childHistory.pipe(Effect.provide(a))
        const erase = (instance: Context.Context<InstanceServices>) =>
          Effect.flatMap(Effect.service(PersonDataRepository), (people) => people.eraseAthlete(child.childId, 1)).pipe(
            Effect.provide(instance)
          )
        const [first, second] = yield* Effect.all([erase(a), erase(b)], { concurrency: "unbounded" })
        expect(second).toEqual(first)
        const sql = Context.get(a, SqlClient.SqlClient)
        const told = yield* sql`SELECT count(*)::int AS count FROM attendance_events WHERE type = 'personErased'
          AND (data->>'athleteId') = ${String(child.childId)}`
        expect(told[0]!["count"]).toBe(1)
        const ledger =
          yield* sql`SELECT count(*)::int AS count FROM person_erasures WHERE athlete_id = ${child.childId}`
        expect(ledger[0]!["count"]).toBe(1)
        expect(yield* leftoversOf(sql, Object.values(child.texts), {})).toEqual([])
      }))
  })
})
