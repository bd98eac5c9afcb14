import { Context } from "effect"
import type { AdminId, AthleteId, CoachId, UserId } from "./Ids.ts"
import type { Role } from "./Role.ts"

/** Who is calling: the authenticated user, read fresh from the database on every request. */
export interface Actor {
  readonly userId: UserId
  readonly role: Role
  readonly athleteId: AthleteId | null
  readonly coachId: CoachId | null
  readonly adminId: AdminId | null
}

export class CurrentActor extends Context.Service<CurrentActor, Actor>()("@club/core/CurrentActor") {}
