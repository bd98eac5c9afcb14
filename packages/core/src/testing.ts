/**
 * `@club/core/testing`: every port of core in memory, with the rules their JSDoc states, for tests
 * and examples. Nothing here is durable or shared between processes.
 */
export * from "./testing/IdempotencyKeyTable.ts"
export * from "./testing/InMemoryActivityRepository.ts"
export * from "./testing/InMemoryAthleteRepository.ts"
export * from "./testing/InMemoryAttendanceRepository.ts"
export * from "./testing/InMemoryCoachRepository.ts"
export * from "./testing/InMemoryIdempotencyKeys.ts"
export * from "./testing/InMemoryLoginAttempts.ts"
export * from "./testing/InMemoryPasswordHasher.ts"
export * from "./testing/InMemoryRecordRepositories.ts"
export * from "./testing/InMemoryRepositories.ts"
export * from "./testing/InMemorySessionRepository.ts"
export * from "./testing/InMemorySeriesRepository.ts"
export * from "./testing/InMemoryStore.ts"
export * from "./testing/InMemoryTaskRepository.ts"
export * from "./testing/InMemoryTokenSigner.ts"
export * from "./testing/InMemoryUserRepository.ts"
export * from "./testing/Table.ts"
export * from "./testing/InMemoryOutbox.ts"
export * from "./testing/InMemoryWebhookRepository.ts"
export * from "./testing/InMemoryHostResolver.ts"
