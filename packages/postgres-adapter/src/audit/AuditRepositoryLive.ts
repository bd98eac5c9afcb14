import { AuditEntry, type AuditFilter, type AuditRange, AuditRepository, traced } from "@club/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"

const decodeEntries = Schema.decodeUnknownEffect(Schema.Array(AuditEntry))

/**
 * An entry's record id equals the jsonb value that follows, in the words of the partial index on
 * it (migration 0042), so that the index is used: jsonb numbers compare by value.
 */
export const recordIdIs = (sql: SqlClient.SqlClient, alias = "") =>
  sql.literal(`${alias}record_ids ? 'id' AND ${alias}record_ids -> 'id' =`)

/**
 * The trail newest first, one statement a page: by the primary key, each filter a condition (the
 * record's id through the index on `record_ids -> 'id'`), the entry as `AuditEntry` built in SQL.
 */
export const AuditRepositoryLive = Layer.effect(
  AuditRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = traced("AuditRepository.read")(function*(filter: AuditFilter, range: AuditRange) {
      const conditions = [
        range.before === null ? sql`true` : sql`id < ${range.before}`,
        filter.userId === undefined ? sql`true` : sql`actor_user_id = ${filter.userId}`,
        filter.recordType === undefined ? sql`true` : sql`record_type = ${filter.recordType}`,
        filter.recordId === undefined ?
          sql`true` :
          sql`${recordIdIs(sql)} to_jsonb(${
            /^[0-9]+$/u.test(filter.recordId) ? sql`${BigInt(filter.recordId)}::bigint` : sql`${filter.recordId}::text`
          })`,
        filter.operation === undefined ? sql`true` : sql`operation = ${filter.operation}`,
        filter.from === undefined ? sql`true` : sql`at >= ${filter.from}::timestamptz`,
        filter.to === undefined ? sql`true` : sql`at < ${filter.to}::timestamptz`
      ]
      const rows = yield* sql<{ entry: unknown }>`SELECT json_build_object(
          'id', id::float8,
          'at', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          'actor', CASE WHEN actor_user_id IS NULL THEN NULL
            ELSE json_build_object('userId', actor_user_id::float8, 'role', actor_role) END,
          'requestId', request_id, 'operation', operation, 'recordType', record_type,
          'records', record_ids, 'changes', changes) AS entry
        FROM audit_entries WHERE ${sql.and(conditions)}
        ORDER BY id DESC LIMIT ${range.limit}`
      return yield* decodeEntries(rows.map((row) => typeof row.entry === "string" ? JSON.parse(row.entry) : row.entry))
    }, dieOnInfrastructureError)
    return AuditRepository.of({ read })
  })
)
