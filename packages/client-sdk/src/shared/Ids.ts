import {
  ActivityId,
  AdminId,
  AthleteId,
  CalendarDate,
  CoachId,
  LocalDateTime,
  SessionId,
  TaskId,
  UserId
} from "@club/contract/rest"
import { Schema } from "effect"

/**
 * The contract's ids and date formats: each name is a schema (for Effect code) and its branded type.
 * `CalendarDate` is an ISO calendar date, `2026-01-31`; `LocalDateTime` a wall-clock time at the
 * club without offset, `2026-01-31T18:30:00` (a session's `creneau`).
 */
export { ActivityId, AdminId, AthleteId, CalendarDate, CoachId, LocalDateTime, SessionId, TaskId, UserId }

/** A constructor that checks the value against the contract's schema and gives it its brand. */
const branded = <A, I>(schema: Schema.Codec<A, I>, what: string) => {
  const is = Schema.is(schema)
  return (value: I): A => {
    if (!is(value)) throw new RangeError(`Not ${what}: ${JSON.stringify(value)}`)
    return value as unknown as A
  }
}

/**
 * The ids of the contract are branded: a session's id is not an athlete's, and the type checker says
 * so. Ids read from answers already carry their brand; these give one to a number from elsewhere
 * (a URL, a form), after checking it is a positive integer within JavaScript's safe range.
 */
export const activityId = branded(ActivityId, "an activity id")
export const adminId = branded(AdminId, "an admin id")
export const athleteId = branded(AthleteId, "an athlete id")
export const coachId = branded(CoachId, "a coach id")
export const sessionId = branded(SessionId, "a session id")
export const userId = branded(UserId, "a user id")
/** A task's id is a UUID. */
export const taskId = branded(TaskId, "a task id (a UUID)")
