import { expect } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { SqlClient } from "effect/sql"
import bookingsAsInstants from "../src/migrations/0023_bookings_as_instants.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/** The stored bookings as `[session, person, lower, upper]`, instants in UTC. */
const storedBookings = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ row: string }>`SELECT concat_ws(' ', session_id, person,
      to_char(lower(during) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI'),
      to_char(upper(during) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI')) AS row
    FROM (SELECT session_id, 'coach' || coach_id AS person, during FROM coach_bookings
      UNION ALL SELECT session_id, 'athlete' || athlete_id, during FROM athlete_bookings) b
    ORDER BY session_id, person`
  return rows.map((r) => r.row)
})

onEachDatabase("Migration 0023 on bookings computed on the wall clock", (it) => {
  it.effect("computes them again as instants in CLUB_TIMEZONE; of two that now overlap, the older session keeps its own", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO coaches (id, name) VALUES (1, 'Coach')`
      yield* sql`INSERT INTO athletes (id, name) VALUES (1, 'Athlete')`
      yield* sql`INSERT INTO sessions (id, name, creneau, duree, coach_id) VALUES
        (1, 'long', '2027-03-28T01:30:00', 90, 1),
        (2, 'after', '2027-03-28T03:30:00', 30, 1),
        (3, 'autumn', '2027-10-31T02:30:00', 60, NULL),
        (4, 'plain', '2027-06-01T10:00:00', 60, 1)`
      yield* sql`INSERT INTO session_athletes (session_id, athlete_id) VALUES (3, 1)`
      // As the old rule wrote them: `creneau + duree` on the wall clock, each end read by AT TIME ZONE.
      const old = sql`tstzrange(s.creneau AT TIME ZONE 'Europe/Paris',
        (s.creneau + s.duree * interval '1 minute') AT TIME ZONE 'Europe/Paris', '[)')`
      yield* sql`INSERT INTO coach_bookings (session_id, coach_id, during)
        SELECT s.id, s.coach_id, ${old} FROM sessions s WHERE s.coach_id IS NOT NULL`
      yield* sql`INSERT INTO athlete_bookings (session_id, athlete_id, during)
        SELECT s.id, 1, ${old} FROM sessions s WHERE s.id = 3`
      expect(yield* storedBookings).toEqual([
        "1 coach1 2027-03-28T00:30 2027-03-28T01:00",
        "2 coach1 2027-03-28T01:30 2027-03-28T02:00",
        "3 athlete1 2027-10-31T01:30 2027-10-31T02:30",
        "4 coach1 2027-06-01T08:00 2027-06-01T09:00"
      ])
      yield* bookingsAsInstants.pipe(
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ CLUB_TIMEZONE: "Europe/Paris" })))
      )
      expect(yield* storedBookings).toEqual([
        // 01:30 CET + 90 real minutes: 00:30Z to 02:00Z, which session 2 (01:30Z) now overlaps.
        "1 coach1 2027-03-28T00:30 2027-03-28T02:00",
        // 02:30 on the autumn night is its first occurrence, 02:30 CEST (00:30Z).
        "3 athlete1 2027-10-31T00:30 2027-10-31T01:30",
        "4 coach1 2027-06-01T08:00 2027-06-01T09:00"
      ])
    }))

  it.effect("club_instant reads a skipped time with the offset before the skip, a repeated one as its first occurrence", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const read = (local: string, zone: string) =>
        Effect.map(
          sql<{ at: string }>`SELECT to_char(club_instant(${local}::timestamp, ${zone}) AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24:MI') AS at`,
          (rows) => rows[0]!.at
        )
      expect(yield* read("2027-03-28T02:30:00", "Europe/Paris")).toBe("2027-03-28T01:30")
      expect(yield* read("2027-10-31T02:30:00", "Europe/Paris")).toBe("2027-10-31T00:30")
      expect(yield* read("2027-10-31T03:00:00", "Europe/Paris")).toBe("2027-10-31T02:00")
      expect(yield* read("2027-11-07T01:30:00", "America/New_York")).toBe("2027-11-07T05:30")
      expect(yield* read("2027-04-04T01:45:00", "Australia/Lord_Howe")).toBe("2027-04-03T14:45")
      expect(yield* read("2027-10-03T02:15:00", "Australia/Lord_Howe")).toBe("2027-10-02T15:45")
      expect(yield* read("2027-06-01T10:00:00", "UTC")).toBe("2027-06-01T10:00")
    }))
})
