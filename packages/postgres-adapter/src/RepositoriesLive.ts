import { Layer } from "effect"
import { ActivityRepositoryLive } from "./records/ActivityRepositoryLive.ts"
import { AthleteRepositoryLive } from "./records/AthleteRepositoryLive.ts"
import { AttendanceRepositoryLive } from "./attendance/AttendanceRepositoryLive.ts"
import { CoachRepositoryLive } from "./records/CoachRepositoryLive.ts"
import { CredentialsCacheLive } from "./users/CredentialsCache.ts"
import { GuardianshipRepositoryLive } from "./membership/GuardianshipRepositoryLive.ts"
import { AuditRepositoryLive } from "./audit/AuditRepositoryLive.ts"
import { GroupRepositoryLive } from "./membership/GroupRepositoryLive.ts"
import { FeedTokenRepositoryLive } from "./feeds/FeedTokenRepositoryLive.ts"
import { InvitationRepositoryLive } from "./membership/InvitationRepositoryLive.ts"
import { IdempotencyKeysLive } from "./idempotency/IdempotencyKeysLive.ts"
import { LoginAttemptsLive } from "./auth/LoginAttemptsLive.ts"
import { NoticePreferenceRepositoryLive } from "./notices/NoticePreferenceRepositoryLive.ts"
import { RecordRepositoriesLive } from "./records/RecordRepositoriesLive.ts"
import { SeriesRepositoryLive } from "./series/SeriesRepositoryLive.ts"
import { SessionRepositoryLive } from "./sessions/SessionRepositoryLive.ts"
import { TaskRepositoryLive } from "./todo/TaskRepositoryLive.ts"
import { UserRepositoryLive } from "./users/UserRepositoryLive.ts"
import { WebhookRepositoryLive } from "./webhooks/WebhookRepositoryLive.ts"
import { RetentionRepositoryLive } from "./retention/RetentionRepositoryLive.ts"
import { NoticeRepositoryLive } from "./notices/NoticeRepositoryLive.ts"
import { PersonDataRepositoryLive } from "./privacy/PersonDataRepositoryLive.ts"

/**
 * Every port this adapter implements, those of core's `recordKinds` included; needs a (migrated) database layer: its client, and whether
 * other processes share it. The repositories share one credentials cache, whose LISTEN (on a
 * shared database) lives and ends with this layer; the cache is provided too, for tests to watch.
 */
export const RepositoriesLive = Layer.mergeAll(
  AthleteRepositoryLive,
  AttendanceRepositoryLive,
  AuditRepositoryLive,
  CoachRepositoryLive,
  InvitationRepositoryLive,
  UserRepositoryLive,
  SessionRepositoryLive,
  SeriesRepositoryLive,
  ActivityRepositoryLive,
  TaskRepositoryLive,
  FeedTokenRepositoryLive,
  GuardianshipRepositoryLive,
  GroupRepositoryLive,
  LoginAttemptsLive,
  IdempotencyKeysLive,
  RecordRepositoriesLive,
  WebhookRepositoryLive,
  RetentionRepositoryLive,
  NoticePreferenceRepositoryLive,
  NoticeRepositoryLive,
  PersonDataRepositoryLive
).pipe(Layer.provideMerge(CredentialsCacheLive))
