import { Effect, Layer } from "effect"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import type { AuditEntry, AuditFilter } from "./AuditEntry.ts"
import { type AuditRange, AuditRepository } from "./AuditRepository.ts"

/** Whether `entry` passes every filter given, as PostgreSQL's statement reads them (`AuditRepositoryLive`). */
const passes = (entry: AuditEntry, filter: AuditFilter) =>
  (filter.userId === undefined || entry.actor?.userId === filter.userId) &&
  (filter.recordType === undefined || entry.recordType === filter.recordType) &&
  (filter.recordId === undefined || String(entry.records["id"]) === filter.recordId) &&
  (filter.operation === undefined || entry.operation === filter.operation) &&
  (filter.from === undefined || Date.parse(entry.at) >= Date.parse(filter.from)) &&
  (filter.to === undefined || Date.parse(entry.at) < Date.parse(filter.to))

export const InMemoryAuditRepository = Layer.effect(
  AuditRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    return AuditRepository.of({
      read: (filter: AuditFilter, range: AuditRange) =>
        Effect.sync(() => {
          const page: Array<AuditEntry> = []
          for (let i = store.auditEntries.length - 1; i >= 0 && page.length < range.limit; i--) {
            const entry = store.auditEntries[i]!
            if ((range.before === null || entry.id < range.before) && passes(entry, filter)) page.push(entry)
          }
          return page
        })
    })
  })
)
