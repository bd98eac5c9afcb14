import { Schema } from "effect"
import { withoutStackTrace } from "./withoutStackTrace.ts"

/** What kind of failure a domain error is; each adapter turns a category into its own status or code. */
export type ErrorCategory = "NotFound" | "Invalid" | "Conflict" | "Forbidden" | "Unauthenticated" | "RateLimited"

/**
 * The kind of record an error names, as its record says it (`"Coach"`, a `RecordTable`'s `entity`):
 * open, so that a new kind of record needs no edit here.
 */
export const EntityKind = Schema.String
export type EntityKind = typeof EntityKind.Type

export class EntityNotFound extends withoutStackTrace(
  Schema.TaggedError<EntityNotFound>()("EntityNotFound", {
    entity: EntityKind,
    id: Schema.Union([Schema.Number, Schema.String])
  })
) {
  readonly category = "NotFound" as const
  override get message() {
    return `${this.entity} not found with id ${this.id}`
  }
}

/** Ids in a request that match no record: nothing was written. */
export class UnknownReferences extends withoutStackTrace(
  Schema.TaggedError<UnknownReferences>()("UnknownReferences", {
    field: Schema.String,
    entity: EntityKind,
    ids: Schema.Array(Schema.Number)
  })
) {
  readonly category = "Invalid" as const
  override get message() {
    return `${this.field}: no ${this.entity.toLowerCase()} with id ${this.ids.join(", ")}`
  }
}

/** A value that breaks a rule the schema alone cannot state. */
export class InvalidValue extends withoutStackTrace(
  Schema.TaggedError<InvalidValue>()("InvalidValue", {
    field: Schema.String,
    reason: Schema.String
  })
) {
  readonly category = "Invalid" as const
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

export class IdAlreadyInUse extends withoutStackTrace(
  Schema.TaggedError<IdAlreadyInUse>()("IdAlreadyInUse", {
    entity: EntityKind,
    id: Schema.Number
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `${this.entity} id ${this.id} is already in use`
  }
}

export class CoachStillOwnsSessions extends withoutStackTrace(
  Schema.TaggedError<CoachStillOwnsSessions>()("CoachStillOwnsSessions", {
    coachId: Schema.Number,
    sessionCount: Schema.Number
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `Coach ${this.coachId} still owns ${this.sessionCount} session${this.sessionCount === 1 ? "" : "s"}`
  }
}

export class UserNameTaken extends withoutStackTrace(
  Schema.TaggedError<UserNameTaken>()("UserNameTaken", {
    name: Schema.String
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `User name '${this.name}' is already taken`
  }
}

/**
 * The last ADMIN user may be neither demoted nor deleted: no one could administer the club after,
 * and a restart does not make a new one while its name is taken (CONTRACT.md "Users and admins").
 */
export class LastAdminUser extends withoutStackTrace(
  Schema.TaggedError<LastAdminUser>()("LastAdminUser", {
    userId: Schema.Number
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `User ${this.userId} is the last ADMIN user; another ADMIN user must exist first`
  }
}

/** A user may be linked to a record only when no other user is. */
export class RecordAlreadyLinked extends withoutStackTrace(
  Schema.TaggedError<RecordAlreadyLinked>()("RecordAlreadyLinked", {
    entity: EntityKind,
    id: Schema.Number
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `${this.entity} ${this.id} is already linked to another user`
  }
}

export class NotPermitted extends withoutStackTrace(
  Schema.TaggedError<NotPermitted>()("NotPermitted", {
    operation: Schema.String
  })
) {
  readonly category = "Forbidden" as const
  override get message() {
    return `Your role may not ${this.operation}`
  }
}

/** One reason for every credential failure, so that a caller learns nothing about which part was wrong. */
export class Unauthenticated extends withoutStackTrace(
  Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
    reason: Schema.Literals(["missing", "invalid", "expired", "credentials"])
  })
) {
  readonly category = "Unauthenticated" as const
  override get message() {
    switch (this.reason) {
      case "missing":
        return "A bearer token is required"
      case "expired":
        return "The token has expired"
      case "credentials":
        return "Invalid name or password"
      case "invalid":
        return "The token is not valid"
    }
  }
}

export class RateLimited extends withoutStackTrace(
  Schema.TaggedError<RateLimited>()("RateLimited", {
    retryAfterSeconds: Schema.Int
  })
) {
  readonly category = "RateLimited" as const
  override get message() {
    return `Too many failed attempts; retry in ${this.retryAfterSeconds} second${
      this.retryAfterSeconds === 1 ? "" : "s"
    }`
  }
}

/**
 * A coach or an athlete who would be booked into overlapping sessions (issue 17): nothing was
 * written. `sessionIds` are the sessions already holding the booking, ascending.
 */
export class ScheduleConflict extends withoutStackTrace(
  Schema.TaggedError<ScheduleConflict>()("ScheduleConflict", {
    sessionIds: Schema.Array(Schema.Number)
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return this.sessionIds.length === 0
      ? "Double booking: the new sessions overlap each other for the same coach or athlete"
      : `Double booking: the coach or an athlete is already booked at an overlapping time in session${
        this.sessionIds.length === 1 ? "" : "s"
      } ${this.sessionIds.join(", ")}`
  }
}

/**
 * A reply to a session whose replies have closed (issue 18): at the cut-off its coach set, or when
 * the session starts. Nothing was written.
 */
export class RepliesClosed extends withoutStackTrace(
  Schema.TaggedError<RepliesClosed>()("RepliesClosed", {
    sessionId: Schema.Number,
    closedAt: Schema.String
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `Replies to session ${this.sessionId} closed at ${this.closedAt}`
  }
}

/** Attendance recorded before the session has started (issue 18). Nothing was written. */
export class SessionNotStarted extends withoutStackTrace(
  Schema.TaggedError<SessionNotStarted>()("SessionNotStarted", {
    sessionId: Schema.Number,
    startsAt: Schema.String
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `Session ${this.sessionId} starts at ${this.startsAt}; who came is recorded once it has started`
  }
}

/** A registration beyond `WEBHOOK_MAX_REGISTRATIONS` (issue 37). Nothing was written. */
export class TooManyWebhooks extends withoutStackTrace(
  Schema.TaggedError<TooManyWebhooks>()("TooManyWebhooks", {
    max: Schema.Number
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `At most ${this.max} webhooks may be registered; remove one first`
  }
}

/**
 * A guardianship link beyond its bound (`GuardianshipBounds`: the athletes of one guardian, or the
 * guardians of one athlete). Nothing was written.
 */
export class TooManyGuardianships extends withoutStackTrace(
  Schema.TaggedError<TooManyGuardianships>()("TooManyGuardianships", {
    of: Schema.Literals(["user", "athlete"]),
    id: Schema.Number,
    max: Schema.Number
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return this.of === "user"
      ? `User ${this.id} guards ${this.max} athletes already, the most one user may guard; unlink one first`
      : `Athlete ${this.id} has ${this.max} guardians already, the most one athlete may have; unlink one first`
  }
}

/**
 * A change to groups or memberships that the state of the club refuses (issue 41,
 * docs/membership.md): a name another group has, a group that still has subgroups or memberships,
 * a move under a group below, a membership that would share a day with another of the same
 * athlete in the group, an ended membership ended again. `field` names what the caller sent.
 * Nothing was written.
 */
export class MembershipConflict extends withoutStackTrace(
  Schema.TaggedError<MembershipConflict>()("MembershipConflict", {
    field: Schema.String,
    reason: Schema.String
  })
) {
  readonly category = "Conflict" as const
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

export type DomainError =
  | EntityNotFound
  | TooManyGuardianships
  | MembershipConflict
  | TooManyWebhooks
  | SessionNotStarted
  | RepliesClosed
  | ScheduleConflict
  | UnknownReferences
  | InvalidValue
  | IdAlreadyInUse
  | CoachStillOwnsSessions
  | UserNameTaken
  | LastAdminUser
  | RecordAlreadyLinked
  | NotPermitted
  | Unauthenticated
  | RateLimited

export const categoryOf = (error: DomainError): ErrorCategory => error.category
