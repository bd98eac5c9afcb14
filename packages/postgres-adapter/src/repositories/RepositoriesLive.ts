import { Layer } from "effect"
import { ActivityRepositoryLive } from "./ActivityRepositoryLive.ts"
import { AdminRepositoryLive } from "./AdminRepositoryLive.ts"
import { AthleteRepositoryLive } from "./AthleteRepositoryLive.ts"
import { CoachRepositoryLive } from "./CoachRepositoryLive.ts"
import { LoginAttemptsLive } from "./LoginAttemptsLive.ts"
import { SessionRepositoryLive } from "./SessionRepositoryLive.ts"
import { TaskRepositoryLive } from "./TaskRepositoryLive.ts"
import { UserRepositoryLive } from "./UserRepositoryLive.ts"

/** Every port this adapter implements; needs a (migrated) `SqlClient`. */
export const RepositoriesLive = Layer.mergeAll(
  AthleteRepositoryLive,
  CoachRepositoryLive,
  AdminRepositoryLive,
  UserRepositoryLive,
  SessionRepositoryLive,
  ActivityRepositoryLive,
  TaskRepositoryLive,
  LoginAttemptsLive
)
