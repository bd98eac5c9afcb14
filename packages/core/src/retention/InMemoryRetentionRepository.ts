import { Effect, Layer } from "effect"
import { InMemoryStore, type InMemoryTables } from "../shared/InMemoryStore.ts"
import { traced } from "../shared/traced.ts"
import { InMemoryOutbox, type Outbox } from "../webhooks/InMemoryOutbox.ts"
import { type RetainedKind, type RetentionCutoff, RetentionRepository } from "./RetentionRepository.ts"

type Purge = (store: InMemoryTables, outbox: Outbox, cutoff: RetentionCutoff, limit: number) => number

/** Drops from `rows` (in place) at most `limit` of those `old` selects, oldest first by `age`; answers how many. */
const dropOldest = <A>(rows: Array<A>, old: (row: A) => boolean, age: (row: A) => number | string, limit: number) => {
  const gone = new Set(
    rows.filter(old).sort((a, b) => (age(a) < age(b) ? -1 : age(a) > age(b) ? 1 : 0)).slice(0, limit)
  )
  const kept = rows.filter((row) => !gone.has(row))
  rows.splice(0, rows.length, ...kept)
  return gone.size
}

/** Each kind's purge, as PostgreSQL's statements do it (`RetentionRepositoryLive`). */
const purges: Record<RetainedKind, Purge> = {
  outboxEvents: (_, outbox, cutoff, limit) => {
    const pending = new Set(outbox.deliveries.filter((d) => d.pending).map((d) => d.eventId))
    const before = new Set(outbox.events.map((e) => e.id))
    const count = dropOldest(
      outbox.events,
      (e) => e.occurredAtMs < cutoff.epochMs && !pending.has(e.id),
      (e) => e.occurredAtMs,
      limit
    )
    const kept = new Set(outbox.events.map((e) => e.id))
    const deliveries = outbox.deliveries.filter((d) => !before.has(d.eventId) || kept.has(d.eventId))
    outbox.deliveries.splice(0, outbox.deliveries.length, ...deliveries)
    return count
  },
  webhookAttempts: (_, outbox, cutoff, limit) =>
    dropOldest(outbox.attempts, (a) => a.atMs < cutoff.epochMs, (a) => a.atMs, limit),
  idempotencyKeys: (store, _, cutoff, limit) => {
    const old = [...store.idempotencyKeys.values()].filter((k) => k.expiresAtEpochMs < cutoff.epochMs)
      .sort((a, b) => a.expiresAtEpochMs - b.expiresAtEpochMs).slice(0, limit)
    for (const key of old) store.idempotencyKeys.delete(key.caller, key.key)
    return old.length
  },
  loginAttempts: (store, _, cutoff, limit) => {
    const old = [...store.loginFailures].filter(([, entry]) => entry.lastFailureEpochMs < cutoff.epochMs)
      .sort(([, a], [, b]) => a.lastFailureEpochMs - b.lastFailureEpochMs).slice(0, limit)
    for (const [key] of old) store.loginFailures.delete(key)
    return old.length
  },
  endedMemberships: (store, _, cutoff, limit) => {
    const old = store.memberships.all().filter((m) => m.until !== null && m.until < cutoff.clubDay)
      .sort((a, b) => (a.until! < b.until! ? -1 : a.until! > b.until! ? 1 : 0)).slice(0, limit)
    for (const membership of old) store.memberships.delete(membership.id)
    return old.length
  },
  notices: (_, outbox, cutoff, limit) => {
    const old = [...outbox.notices.values()].filter((n) => n.status !== "pending" && n.createdAtMs < cutoff.epochMs)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id - b.id).slice(0, limit)
    for (const notice of old) outbox.notices.delete(notice.dedupeKey)
    return old.length
  },
  auditEntries: (store, _, cutoff, limit) =>
    dropOldest(store.auditEntries, (e) => Date.parse(e.at) < cutoff.epochMs, (e) => e.id, limit)
}

export const InMemoryRetentionRepository = Layer.effect(
  RetentionRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const outbox = yield* InMemoryOutbox
    const purge = traced("RetentionRepository.purge")(function*(
      kind: RetainedKind,
      cutoff: RetentionCutoff,
      limit: number
    ) {
      return purges[kind](store, outbox, cutoff, limit)
    })
    return RetentionRepository.of({ purge })
  })
)
