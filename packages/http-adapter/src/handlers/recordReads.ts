import {
  type ActivityId,
  ActivityService,
  type AdminId,
  AdminService,
  type AthleteId,
  AthleteService,
  type CoachId,
  CoachService,
  type SessionId,
  SessionService,
  type UserId,
  UserService
} from "@club/core"
import { Effect } from "effect"
import { toActivityDto, toAthleteDto } from "@club/contract/rest"

/**
 * Each record read by its id, as its `GET …/:id` endpoint answers on success.
 */
export const RecordReads = Effect.gen(function*() {
  const activities = yield* ActivityService
  const admins = yield* AdminService
  const athletes = yield* AthleteService
  const coaches = yield* CoachService
  const sessions = yield* SessionService
  const users = yield* UserService
  return {
    activity: (id: ActivityId) => Effect.map(activities.get(id), toActivityDto),
    admin: (id: AdminId) => admins.get(id),
    athlete: (id: AthleteId) => Effect.map(athletes.get(id), toAthleteDto),
    coach: (id: CoachId) => coaches.get(id),
    session: (id: SessionId) => sessions.get(id),
    user: (id: UserId) => users.get(id)
  }
})
