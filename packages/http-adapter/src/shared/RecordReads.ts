import {
  type ActivityId,
  ActivityService,
  type AthleteId,
  AthleteService,
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
  const athletes = yield* AthleteService
  const sessions = yield* SessionService
  const users = yield* UserService
  return {
    activity: (id: ActivityId) => Effect.map(activities.get(id), toActivityDto),
    athlete: (id: AthleteId) => Effect.map(athletes.get(id), toAthleteDto),
    session: (id: SessionId) => sessions.get(id),
    user: (id: UserId) => users.get(id)
  }
})
