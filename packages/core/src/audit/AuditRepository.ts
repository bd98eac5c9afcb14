import { Context, type Effect } from "effect"
import type { AuditEntry, AuditFilter } from "./AuditEntry.ts"

/** Where a page of the trail starts: before the entry of `before` (null: the newest), and how many to read. */
export interface AuditRange {
  readonly before: number | null
  readonly limit: number
}

/**
 * The audit trail as admins read it: newest first, one bounded statement a page. The entries are
 * written by the stores at each write (PostgreSQL: the audit trigger of migration 0032; in memory:
 * `InMemoryAuditJournal`), never here.
 */
export class AuditRepository extends Context.Service<AuditRepository, {
  read(filter: AuditFilter, range: AuditRange): Effect.Effect<ReadonlyArray<AuditEntry>>
}>()("@club/core/AuditRepository") {}
