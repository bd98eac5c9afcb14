import { Layer } from "effect"
import { ActivityRepositoryLive } from "./ActivityRepositoryLive.ts"
import { AthleteRepositoryLive } from "./AthleteRepositoryLive.ts"
import { AttendanceRepositoryLive } from "./AttendanceRepositoryLive.ts"
import { CoachRepositoryLive } from "./CoachRepositoryLive.ts"
import { CredentialsCacheLive } from "./credentialsCache.ts"
import { FeedTokenRepositoryLive } from "./FeedTokenRepositoryLive.ts"
import { IdempotencyKeysLive } from "./IdempotencyKeysLive.ts"
import { LoginAttemptsLive } from "./LoginAttemptsLive.ts"
import { RecordRepositoriesLive } from "./RecordRepositoriesLive.ts"
import { SeriesRepositoryLive } from "./SeriesRepositoryLive.ts"
import { SessionRepositoryLive } from "./SessionRepositoryLive.ts"
import { TaskRepositoryLive } from "./TaskRepositoryLive.ts"
import { UserRepositoryLive } from "./UserRepositoryLive.ts"
import { WebhookRepositoryLive } from "./WebhookRepositoryLive.ts"

/**
 * Every port this adapter implements, those of core's `recordKinds` included; needs a (migrated) database layer: its client, and whether
 * other processes share it. The repositories share one credentials cache, whose LISTEN (on a
 * shared database) lives and ends with this layer; the cache is provided too, for tests to watch.
 */
export const RepositoriesLive = Layer.mergeAll(
  AthleteRepositoryLive,
  AttendanceRepositoryLive,
  CoachRepositoryLive,
  UserRepositoryLive,
  SessionRepositoryLive,
  SeriesRepositoryLive,
  ActivityRepositoryLive,
  TaskRepositoryLive,
  FeedTokenRepositoryLive,
  LoginAttemptsLive,
  IdempotencyKeysLive,
  RecordRepositoriesLive,
  WebhookRepositoryLive
).pipe(Layer.provideMerge(CredentialsCacheLive))
