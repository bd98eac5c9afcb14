import { activityRepositoryContract } from "./activities.ts"
import { athleteRepositoryContract } from "./athletes.ts"
import { attendanceRepositoryContract } from "./attendance.ts"
import { auditTrailContract } from "./audit.ts"
import { webhookRepositoryContract } from "./webhooks.ts"
import { coachRepositoryContract } from "./coaches.ts"
import type { ContractSuite } from "./Contract.ts"
import { guardianshipRepositoryContract } from "./guardians.ts"
import { invitationsContract } from "./invitations.ts"
import { idempotencyKeysContract } from "./idempotencyKeys.ts"
import { lastAdminContract } from "./lastAdmin.ts"
import { membershipRepositoryContract } from "./membership.ts"
import { loginAttemptsContract } from "./loginAttempts.ts"
import { noticePreferenceRepositoryContract } from "./noticePreferences.ts"
import { planningEditsContract } from "./planningEdits.ts"
import { recordContracts } from "./records.ts"
import { retentionContract } from "./retention.ts"
import { seriesRepositoryContract } from "./series.ts"
import { seriesChangesContract } from "./seriesChanges.ts"
import { sessionRepositoryContract } from "./sessions.ts"
import { suppliedIdsContract } from "./suppliedIds.ts"
import { taskRepositoryContract } from "./tasks.ts"
import { userRepositoryContract } from "./users.ts"

/** Every suite of the repository contract; those of plain kinds of record are generated (`records.ts`). */
export const repositoryContract: ReadonlyArray<ContractSuite> = [
  athleteRepositoryContract,
  coachRepositoryContract,
  ...recordContracts,
  userRepositoryContract,
  lastAdminContract,
  sessionRepositoryContract,
  seriesRepositoryContract,
  seriesChangesContract,
  planningEditsContract,
  attendanceRepositoryContract,
  invitationsContract,
  webhookRepositoryContract,
  membershipRepositoryContract,
  activityRepositoryContract,
  taskRepositoryContract,
  suppliedIdsContract,
  loginAttemptsContract,
  idempotencyKeysContract,
  guardianshipRepositoryContract,
  retentionContract,
  noticePreferenceRepositoryContract,
  auditTrailContract
]
