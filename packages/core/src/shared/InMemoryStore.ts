import { Context, Layer, type Redacted } from "effect"
import type { Activity } from "../records/Activity.ts"
import type { SessionAttendance } from "../attendance/StoredAttendance.ts"
import type { AuditEntry } from "../audit/AuditEntry.ts"
import { type Admin, AdminTable } from "../records/Admin.ts"
import { type Athlete, AthleteTable } from "../records/Athlete.ts"
import { type Coach, CoachTable } from "../records/Coach.ts"
import type { ActivityId, AthleteId, SessionId, TaskId, UserId } from "./Ids.ts"
import type { FeedToken } from "../feeds/FeedToken.ts"
import type { Group, Membership } from "../membership/Group.ts"
import type { LocalDateTime } from "./LocalDateTime.ts"
import type { Series, SeriesCancellation } from "../series/Series.ts"
import type { NoticePreference } from "../notices/NoticePreference.ts"
import { Session } from "../sessions/Session.ts"
import type { Task } from "../todo/Task.ts"
import type { User } from "../users/User.ts"
import { IdempotencyKeyTable } from "../idempotency/IdempotencyKeyTable.ts"
import { RecordTables } from "../records/RecordTables.ts"
import { Table } from "./Table.ts"

/** A user with what only login and token checks read. */
export interface StoredUser {
  readonly id: UserId
  readonly user: User
  readonly passwordHash: Redacted.Redacted<string>
  /** Epoch seconds; see `UserCredentials.tokensValidAfter`. */
  readonly tokensValidAfter: number
}

/** A session's own fields and its athletes; its activities are those whose `sessionId` names it. */
export interface StoredSession extends Omit<Session, "athleteIds" | "activiteIds"> {
  readonly athleteIds: Set<AthleteId>
}

/** A stored session as the repositories answer it: its athletes ascending, with `activiteIds` (ascending). */
export const sessionOfStored = (stored: StoredSession, activiteIds: ReadonlyArray<ActivityId>): Session =>
  new Session({ ...stored, athleteIds: [...stored.athleteIds].sort((a, b) => a - b), activiteIds })

/** A series' own fields, the session of each occurrence time it ever created, and those changed by themselves. */
export interface StoredSeries extends Omit<Series, "occurrences"> {
  readonly occurrences: Map<LocalDateTime, SessionId>
  readonly overridden: Set<SessionId>
  /** The occurrences cancelled by themselves, by their time. */
  readonly cancelled: Map<LocalDateTime, Omit<SeriesCancellation, "seriesId" | "occurrenceStart">>
}

/**
 * A person booked by a session over the instants `[from, to)` (epoch ms), as PostgreSQL's
 * `coach_bookings` and `athlete_bookings` hold it: by the session's id, then the person's.
 */
export interface Booking {
  readonly from: number
  readonly to: number
}

/** A login throttling key's failures, and the time of the last one. */
export interface LoginFailures {
  readonly failures: number
  readonly lastFailureEpochMs: number
}

export interface InMemoryTables {
  /** Every kind of record by its entity; `athletes`, `coaches` and `admins` are three of them. */
  readonly records: RecordTables
  readonly athletes: Table<Athlete>
  readonly coaches: Table<Coach>
  readonly admins: Table<Admin>
  readonly users: Table<StoredUser>
  readonly sessions: Table<StoredSession>
  readonly activities: Table<Activity>
  readonly series: Table<StoredSeries>
  /** Each session's revision (a feed's SEQUENCE): absent is 0, one more on every change of its values. */
  readonly sessionRevisions: Map<SessionId, number>
  /** Each booked session's coach booking; it holds while the session exists. */
  readonly coachBookings: Map<SessionId, Booking & { readonly coachId: number }>
  /** Each booked session's athlete bookings; one holds while the athlete is a member of the session. */
  readonly athleteBookings: Map<SessionId, Map<AthleteId, Booking>>
  /** In creation order, which deletes keep. */
  readonly tasks: Map<TaskId, Task>
  readonly loginFailures: Map<string, LoginFailures>
  readonly idempotencyKeys: IdempotencyKeyTable
  /** The club's groups (issue 41); a group's `coachIds` ascending, each once. */
  readonly groups: Table<Group>
  /** Every membership ever started, ended ones included (a membership is never rewritten). */
  readonly memberships: Table<Membership>
  /** Each athlete's guardians. */
  readonly guardians: Map<AthleteId, Set<UserId>>
  /** The notice preferences of the users who chose (issue 42); the others have the defaults. */
  readonly noticePreferences: Map<UserId, NoticePreference>
  /** Each user's calendar feed token, with when it was issued (epoch seconds). */
  readonly feedTokens: Map<UserId, { readonly token: FeedToken; readonly issuedAt: number }>
  /** The audit trail, oldest first (docs/privacy.md "Audit trail"). */
  readonly auditEntries: Array<AuditEntry>
  /** Each session's capacity and replies, as the attendance port keeps them (a person's erasure blanks their reasons). */
  readonly attendance: Map<SessionId, SessionAttendance>
}

/**
 * What the in-memory ports keep, in this process only: one store per build of the layer. Tests may
 * read it; writes go through the ports, which keep the rules.
 *
 * Every operation of an in-memory port reads and writes the store in one synchronous step, with
 * every check before the first write: concurrent operations never see one half-done, and a refused
 * one has changed nothing, as the database's transactions promise.
 */
export class InMemoryStore
  extends Context.Service<InMemoryStore, InMemoryTables>()("@club/core/testing/InMemoryStore")
{
  /** A new, empty store each time the layer is built. */
  static readonly layer = Layer.sync(InMemoryStore, (): InMemoryTables => {
    const records = new RecordTables()
    return {
      records,
      athletes: records.of(AthleteTable.entity),
      coaches: records.of(CoachTable.entity),
      admins: records.of(AdminTable.entity),
      users: new Table("User"),
      sessions: new Table("Session"),
      activities: new Table("Activity"),
      series: new Table("Series"),
      sessionRevisions: new Map(),
      coachBookings: new Map(),
      athleteBookings: new Map(),
      tasks: new Map(),
      loginFailures: new Map(),
      idempotencyKeys: new IdempotencyKeyTable(),
      groups: new Table("Group"),
      memberships: new Table("Membership"),
      guardians: new Map(),
      noticePreferences: new Map(),
      feedTokens: new Map(),
      auditEntries: [],
      attendance: new Map()
    }
  })
}
