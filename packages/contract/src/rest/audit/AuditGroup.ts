import {
  AuditEntry,
  AuditInstant,
  auditOperations,
  AuditRecordId,
  AuditRecordType,
  defaultPageLimit,
  maxPageLimit,
  PageCursor,
  UserId
} from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { tag } from "../shared/endpointParts.ts"
import { LimitParameter } from "../shared/LimitParameter.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Forbidden, InvalidRequest } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"

const entryExample = {
  id: 812,
  at: "2027-01-09T18:02:11.532000Z",
  actor: { userId: 1, role: "ADMIN" },
  requestId: "3f2b8c1e-6a4d-4f7e-9d0a-2c5e8b7a1f90",
  operation: "update" as const,
  recordType: "users",
  records: { id: 12, coach_id: 3 },
  changes: { name: "Camille", password_hash: "(withheld)" }
}

export const AuditEntryDto = documented(
  AuditEntry,
  "AuditEntry",
  "One row a write inserted, changed or deleted: when (the database's clock), who (`actor`: the user and their role; null for the server's own writes), the request's `x-request-id`, the table (`recordType`) and the row's ids (`records`), and the columns it set with their new values (none for a delete). A password hash, a secret, a token's hash and a reason for an absence are named, never copied: `\"(withheld)\"`.",
  [entryExample]
)

export const AuditPageDto = documented(
  Schema.Struct({
    items: Schema.Array(AuditEntryDto),
    nextCursor: Schema.NullOr(Schema.String).annotate({
      description: "The `cursor` of the next (older) page; null on the last page."
    })
  }),
  "AuditPage",
  "One page of the audit trail, newest first, and the cursor of the next.",
  [{ items: [entryExample], nextCursor: null }]
)

/** Admins read the audit trail (issue 43 item 4, docs/privacy.md "Audit trail"). */
export class AuditGroup extends HttpApiGroup.make("audit").add(
  HttpApiEndpoint.get("audit", "/audit", {
    query: {
      limit: Schema.optionalKey(LimitParameter.annotate({
        description: `At most this many entries, from 1 to ${maxPageLimit} (${defaultPageLimit} when absent).`
      })),
      cursor: Schema.optionalKey(PageCursor.annotate({
        description: "Where the page starts: the `nextCursor` of the page before (absent: the newest entry)."
      })),
      userId: Schema.optionalKey(pathId(UserId).annotate({ description: "Only the writes this user made." })),
      recordType: Schema.optionalKey(AuditRecordType.annotate({
        description: "Only the rows of this table (`users`, `athletes`, `session_replies`...)."
      })),
      recordId: Schema.optionalKey(AuditRecordId.annotate({
        description: "Only the rows whose own id is this one (with `recordType`: one record's history)."
      })),
      operation: Schema.optionalKey(
        Schema.Literals(auditOperations).annotate({
          description: "Only inserts, updates or deletes."
        })
      ),
      from: Schema.optionalKey(AuditInstant.annotate({ description: "Only entries at or after this instant." })),
      to: Schema.optionalKey(AuditInstant.annotate({ description: "Only entries before this instant." }))
    },
    success: AuditPageDto,
    error: [InvalidRequest, Forbidden]
  }).annotateMerge(operation(
    "Read the audit trail",
    `Who changed what and when, newest first (admins only). At most \`limit\` (${defaultPageLimit} by default, at most ${maxPageLimit}) a page; follow \`nextCursor\` for older entries. Paging is by key, so entries written meanwhile never make a page repeat or skip one. One bounded statement a page. A parameter that does not parse: 400 naming it.`,
    "audit.read"
  ))
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Audit trail",
  "Issue 43: every write's entry, kept for RETENTION_AUDIT_ENTRIES_DAYS (docs/privacy.md)."
)) {}
