import type {
  ActivityRepository,
  AthleteRepository,
  AttendanceRepository,
  AuditRepository,
  CoachRepository,
  GuardianshipRepository,
  GroupRepository,
  IdempotencyKeys,
  InvitationRepository,
  LoginAttempts,
  NoticePreferenceRepository,
  RecordPorts,
  RetentionRepository,
  SeriesRepository,
  SessionRepository,
  TaskRepository,
  UserId,
  UserRepository,
  WebhookRepository
} from "@club/core"
import { describe, layer, type Vitest } from "@effect/vitest"
import { Context, type Effect, type Layer } from "effect"

/**
 * The repository contract: the tests every implementation of core's ports must pass, whatever
 * keeps the data (core's in-memory store, PostgreSQL, embedded PGlite). What the ports' JSDoc says,
 * these check. They import core by its package name, so that the classes they build and compare
 * are the ones the implementation under test was built with.
 */

/** A login throttling key as stored: [key, failures, last failure's epoch ms]. */
export type StoredKey = readonly [key: string, failures: number, lastFailureEpochMs: number]

/**
 * A look at what the login attempts store holds, which the port itself does not show: each
 * implementation provides it from its own storage, for the tests only.
 */
export class StoredLoginFailures extends Context.Service<StoredLoginFailures, {
  /** The keys among `keys` that hold failures, in key order. */
  of(keys: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<StoredKey>>
}>()("test/StoredLoginFailures") {}

/**
 * A look at which idempotency keys the store holds, which the port itself does not show (a claim
 * of a dropped key and of an expired one answer alike): each implementation provides it from its
 * own storage, for the tests only.
 */
export class StoredIdempotencyKeys extends Context.Service<StoredIdempotencyKeys, {
  /** The caller's keys among `keys` that are stored, expired or not, in code-point order. */
  of(caller: UserId, keys: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>>
}>()("test/StoredIdempotencyKeys") {}

export type ContractServices =
  | AthleteRepository
  | AttendanceRepository
  | AuditRepository
  | CoachRepository
  | RecordPorts
  | UserRepository
  | SessionRepository
  | SeriesRepository
  | ActivityRepository
  | TaskRepository
  | LoginAttempts
  | StoredLoginFailures
  | IdempotencyKeys
  | StoredIdempotencyKeys
  | WebhookRepository
  | GuardianshipRepository
  | GroupRepository
  | InvitationRepository
  | RetentionRepository
  | NoticePreferenceRepository

export interface Implementation {
  /** For test titles. */
  readonly name: string
  /** False when its database does not answer: its suites are skipped rather than failed. */
  readonly available: boolean
  /** A fresh, empty store per build: each suite gets its own. */
  readonly layer: Layer.Layer<ContractServices, unknown>
}

export interface ContractSuite {
  readonly title: string
  /** The tests of one block share its store, in order: a test may build on what the ones before it left. */
  readonly tests: (it: Vitest.MethodsNonLive<ContractServices>) => void
}

/** Registers the suite once per implementation, each block on a store of its own. */
export const runContract = (suite: ContractSuite, implementations: ReadonlyArray<Implementation>) => {
  for (const implementation of implementations) {
    describe.skipIf(!implementation.available)(`${suite.title} [${implementation.name}]`, () => {
      // The test clock is left out: a database's pool needs real time, and tasks are stamped with it.
      layer(implementation.layer, { timeout: "2 minutes", excludeTestServices: true })(suite.tests)
    })
  }
}
