import { Layer } from "effect"
import { InMemoryActivityRepository } from "./InMemoryActivityRepository.ts"
import { InMemoryAthleteRepository } from "./InMemoryAthleteRepository.ts"
import { InMemoryAttendanceRepository } from "./InMemoryAttendanceRepository.ts"
import { InMemoryCoachRepository } from "./InMemoryCoachRepository.ts"
import { InMemoryFeedTokenRepository } from "./InMemoryFeedTokenRepository.ts"
import { InMemoryIdempotencyKeys } from "./InMemoryIdempotencyKeys.ts"
import { InMemoryLoginAttempts } from "./InMemoryLoginAttempts.ts"
import { InMemoryRecordRepositories } from "./InMemoryRecordRepositories.ts"
import { InMemorySeriesRepository } from "./InMemorySeriesRepository.ts"
import { InMemorySessionRepository } from "./InMemorySessionRepository.ts"
import { InMemoryOutbox } from "./InMemoryOutbox.ts"
import { InMemoryStore } from "./InMemoryStore.ts"
import { InMemoryHostResolver } from "./InMemoryHostResolver.ts"
import { InMemoryCursorSeal } from "./InMemoryCursorSeal.ts"
import { InMemoryWebhookRepository } from "./InMemoryWebhookRepository.ts"
import { InMemoryTaskRepository } from "./InMemoryTaskRepository.ts"
import { InMemoryUserRepository } from "./InMemoryUserRepository.ts"

/**
 * Every repository port of core, the login attempts, the idempotency keys and the cursor seal
 * (a table of the cursors handed out), on one fresh in-memory store per build of the layer (provided too, for tests to look at). With a
 * `PasswordHasher` and a `TokenSigner`, enough for every use-case, `IdempotentRequests` included.
 */
export const InMemoryRepositories = Layer.mergeAll(
  InMemoryAthleteRepository,
  InMemoryAttendanceRepository,
  InMemoryCoachRepository,
  InMemoryUserRepository,
  InMemorySessionRepository,
  InMemorySeriesRepository,
  InMemoryActivityRepository,
  InMemoryTaskRepository,
  InMemoryFeedTokenRepository,
  InMemoryLoginAttempts,
  InMemoryIdempotencyKeys,
  InMemoryRecordRepositories,
  InMemoryWebhookRepository,
  InMemoryHostResolver,
  InMemoryCursorSeal
).pipe(Layer.provideMerge(InMemoryStore.layer), Layer.provideMerge(InMemoryOutbox.layer))
