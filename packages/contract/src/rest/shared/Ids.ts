/**
 * The identifiers and date formats the contract speaks in (core's schemas): branded numbers and
 * strings, so that a client cannot pass a coach's id where a session's is expected.
 */
export {
  ActivityId,
  AdminId,
  AthleteId,
  CalendarDate,
  CoachId,
  LocalDateTime,
  SessionId,
  TaskId,
  UserId
} from "@club/core"
