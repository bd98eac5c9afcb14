export { DatabaseSharing } from "./database/DatabaseSharing.ts"
export {
  EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  embeddedDataDir,
  inMemory
} from "./database/EmbeddedPostgres.ts"
export { migrated, MigrationsLive } from "./database/MigrationsLive.ts"
export { pingDatabase } from "./database/pingDatabase.ts"
export { PostgresServer, type PostgresServerOptions } from "./database/PostgresServer.ts"
export { migrations } from "./migrations/index.ts"
export { ActivityRepositoryLive } from "./repositories/ActivityRepositoryLive.ts"
export { AthleteRepositoryLive } from "./repositories/AthleteRepositoryLive.ts"
export { CoachRepositoryLive } from "./repositories/CoachRepositoryLive.ts"
export { CredentialsCache, CredentialsCacheLive } from "./repositories/credentialsCache.ts"
export { credentialsTtlMillis } from "./repositories/credentialsMemory.ts"
export { credentialsChannel } from "./repositories/credentialsListener.ts"
export { IdempotencyKeysLive } from "./repositories/IdempotencyKeysLive.ts"
export { LoginAttemptsLive } from "./repositories/LoginAttemptsLive.ts"
export { RecordRepositoriesLive } from "./repositories/RecordRepositoriesLive.ts"
export { RepositoriesLive } from "./repositories/RepositoriesLive.ts"
export { SessionRepositoryLive } from "./repositories/SessionRepositoryLive.ts"
export { SeriesRepositoryLive } from "./repositories/SeriesRepositoryLive.ts"
export { TaskRepositoryLive } from "./repositories/TaskRepositoryLive.ts"
export { UserRepositoryLive } from "./repositories/UserRepositoryLive.ts"
export { ownerOnlyFolder, restrictToOwner } from "./database/ownerOnly.ts"
export { FeedTokenRepositoryLive } from "./repositories/FeedTokenRepositoryLive.ts"
export { AttendanceRepositoryLive } from "./repositories/AttendanceRepositoryLive.ts"
export { WebhookRepositoryLive } from "./repositories/WebhookRepositoryLive.ts"
