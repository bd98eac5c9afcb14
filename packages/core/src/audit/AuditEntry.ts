import { Schema } from "effect"

/** Who did a write: a user and their role then; null for the server's own writes ("system"). */
export const AuditEntryActor = Schema.NullOr(Schema.Struct({ userId: Schema.Int, role: Schema.String }))

export const auditOperations = ["insert", "update", "delete"] as const

/**
 * One row a write inserted, changed or deleted (issue 43 item 4, docs/privacy.md "Audit trail"):
 * who, when (the database's clock at the write's transaction), under which request, which table
 * (`recordType`) and row (`records`: the row's own id and the ids it names), and the columns it set
 * with their new values (none for a delete; a secret column or a reason for an absence by its name
 * only, `"(withheld)"`).
 */
export const AuditEntry = Schema.Struct({
  id: Schema.Int,
  at: Schema.String,
  actor: AuditEntryActor,
  requestId: Schema.NullOr(Schema.String),
  operation: Schema.Literals(auditOperations),
  recordType: Schema.String,
  records: Schema.Record(Schema.String, Schema.Unknown),
  changes: Schema.Record(Schema.String, Schema.Unknown)
})
export type AuditEntry = typeof AuditEntry.Type

/** An instant as ISO 8601 with its offset (`2027-01-09T18:00:00Z`). */
export const AuditInstant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/u, {
    expected: "an instant such as 2027-01-09T18:00:00Z"
  })
)

/** The table names an entry's `recordType` takes: lower-case words joined by `_`. */
export const AuditRecordType = Schema.String.check(
  Schema.isPattern(/^[a-z_]{1,63}$/u, { expected: "a record type such as users or session_replies" })
)

/** A record's id: an integer, or a todo task's UUID. */
export const AuditRecordId = Schema.String.check(
  Schema.isPattern(/^([1-9][0-9]{0,15}|[0-9a-f-]{36})$/u, { expected: "a record's id" })
)

/** What `GET /audit` may narrow the trail to; each absent filter lets every entry through. */
export interface AuditFilter {
  readonly userId?: number | undefined
  readonly recordType?: string | undefined
  readonly recordId?: string | undefined
  readonly operation?: typeof auditOperations[number] | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}
