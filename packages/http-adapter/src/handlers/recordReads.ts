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
import { toActiviteDto, toAdminDto, toAthleteDto, toCoachDto, toSessionDto, toUserDto } from "./toDto.ts"

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
    activity: (id: ActivityId) => Effect.map(activities.get(id), toActiviteDto),
    admin: (id: AdminId) => Effect.map(admins.get(id), toAdminDto),
    athlete: (id: AthleteId) => Effect.map(athletes.get(id), toAthleteDto),
    coach: (id: CoachId) => Effect.map(coaches.get(id), toCoachDto),
    session: (id: SessionId) => Effect.map(sessions.get(id), toSessionDto),
    user: (id: UserId) => Effect.map(users.get(id), toUserDto)
  }
})
