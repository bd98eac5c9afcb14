import { Effect, Layer } from "effect"
import { InMemoryAuditJournal, journaled } from "./audit/InMemoryAuditJournal.ts"
import { InMemoryActivityRepository } from "./records/InMemoryActivityRepository.ts"
import { InMemoryAthleteRepository } from "./records/InMemoryAthleteRepository.ts"
import { InMemoryAttendanceRepository } from "./attendance/InMemoryAttendanceRepository.ts"
import { InMemoryInvitationRepository } from "./membership/InMemoryInvitationRepository.ts"
import { InMemoryCoachRepository } from "./records/InMemoryCoachRepository.ts"
import { InMemoryGuardianshipRepository } from "./membership/InMemoryGuardianshipRepository.ts"
import { InMemoryGroupRepository } from "./membership/InMemoryGroupRepository.ts"
import { InMemoryFeedTokenRepository } from "./feeds/InMemoryFeedTokenRepository.ts"
import { InMemoryNoticePreferenceRepository } from "./notices/InMemoryNoticePreferenceRepository.ts"
import { InMemoryUnsubscribeSeal } from "./notices/InMemoryUnsubscribeSeal.ts"
import { InMemoryIdempotencyKeys } from "./idempotency/InMemoryIdempotencyKeys.ts"
import { InMemoryLoginAttempts } from "./auth/InMemoryLoginAttempts.ts"
import { InMemoryRecordRepositories } from "./records/InMemoryRecordRepositories.ts"
import { InMemorySeriesRepository } from "./series/InMemorySeriesRepository.ts"
import { InMemorySessionRepository } from "./sessions/InMemorySessionRepository.ts"
import { InMemoryOutbox } from "./webhooks/InMemoryOutbox.ts"
import { InMemoryStore } from "./shared/InMemoryStore.ts"
import { InMemoryRetentionRepository } from "./retention/InMemoryRetentionRepository.ts"
import { InMemoryHostResolver } from "./webhooks/InMemoryHostResolver.ts"
import { InMemoryCursorSeal } from "./shared/InMemoryCursorSeal.ts"
import { InMemoryWebhookRepository } from "./webhooks/InMemoryWebhookRepository.ts"
import { InMemoryAuditRepository } from "./audit/InMemoryAuditRepository.ts"
import { InMemoryTaskRepository } from "./todo/InMemoryTaskRepository.ts"
import { InMemoryUserRepository } from "./users/InMemoryUserRepository.ts"
import { InMemoryPersonDataRepository } from "./privacy/InMemoryPersonDataRepository.ts"

const ports = Layer.mergeAll(
  InMemoryAthleteRepository,
  InMemoryAuditRepository,
  InMemoryAttendanceRepository,
  InMemoryCoachRepository,
  InMemoryInvitationRepository,
  InMemoryUserRepository,
  InMemorySessionRepository,
  InMemorySeriesRepository,
  InMemoryActivityRepository,
  InMemoryTaskRepository,
  InMemoryFeedTokenRepository,
  InMemoryGuardianshipRepository,
  InMemoryGroupRepository,
  InMemoryLoginAttempts,
  InMemoryIdempotencyKeys,
  InMemoryRecordRepositories,
  InMemoryWebhookRepository,
  InMemoryRetentionRepository,
  InMemoryHostResolver,
  InMemoryCursorSeal,
  InMemoryNoticePreferenceRepository,
  InMemoryUnsubscribeSeal,
  InMemoryPersonDataRepository
)

/**
 * Every repository port of core, the login attempts, the idempotency keys and the cursor seal
 * (a table of the cursors handed out) and the unsubscribe seal (likewise), on one fresh in-memory
 * store per build of the layer (provided too, for tests to look at), each port's operations run
 * through the store's audit journal. With a `PasswordHasher` and a `TokenSigner`, enough for every
 * use-case, `IdempotentRequests` included.
 */
export const InMemoryRepositories = Layer.effectContext(
  Effect.gen(function*() {
    const journal = yield* InMemoryAuditJournal
    return journaled(journal, yield* Effect.context<Layer.Success<typeof ports>>())
  })
).pipe(
  Layer.provide(ports),
  Layer.provide(InMemoryAuditJournal.layer),
  Layer.provideMerge(InMemoryStore.layer),
  Layer.provideMerge(InMemoryOutbox.layer)
)
