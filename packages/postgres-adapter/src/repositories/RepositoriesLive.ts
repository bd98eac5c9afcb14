import { Layer } from "effect"
import { ActivityRepositoryLive } from "./ActivityRepositoryLive.ts"
import { AdminRepositoryLive } from "./AdminRepositoryLive.ts"
import { AthleteRepositoryLive } from "./AthleteRepositoryLive.ts"
import { CoachRepositoryLive } from "./CoachRepositoryLive.ts"
import { CredentialsCacheLive } from "./credentialsCache.ts"
import { IdempotencyKeysLive } from "./IdempotencyKeysLive.ts"
import { LoginAttemptsLive } from "./LoginAttemptsLive.ts"
import { SessionRepositoryLive } from "./SessionRepositoryLive.ts"
import { TaskRepositoryLive } from "./TaskRepositoryLive.ts"
import { UserRepositoryLive } from "./UserRepositoryLive.ts"

/**
 * Every port this adapter implements; needs a (migrated) database layer: its client, and whether
 * other processes share it. The repositories share one credentials cache, whose LISTEN (on a
 * shared database) lives and ends with this layer; the cache is provided too, for tests to watch.
 */
export const RepositoriesLive = Layer.mergeAll(
  AthleteRepositoryLive,
  CoachRepositoryLive,
  AdminRepositoryLive,
  UserRepositoryLive,
  SessionRepositoryLive,
  ActivityRepositoryLive,
  TaskRepositoryLive,
  LoginAttemptsLive,
  IdempotencyKeysLive
).pipe(Layer.provideMerge(CredentialsCacheLive))
