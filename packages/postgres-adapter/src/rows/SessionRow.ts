import { Session, type SessionId, SessionSummary, SessionValues } from "@club/core"
import { Schema } from "effect"
import { int, ints, textOrNull } from "../sql/columns.ts"
import { Int64 } from "../sql/Int64.ts"
import { valueReaders } from "./valueReader.ts"
import { trustedInstance } from "./trustedInstance.ts"

const readers = valueReaders(SessionValues)

/**
 * A session with its athlete and activity ids aggregated in the same row, read in bulk (see
 * sql/columns.ts), each of core's `SessionValues` under its field's name. `creneau` comes from
 * `to_char` with a fixed pattern, and the id arrays from `ARRAY(SELECT ...)` of `bigint` columns.
 */
export const sessionFromRow = (row: Record<string, unknown>): Session => {
  // Built field by field, in the class's order: this runs for every session of a listing.
  const fields: Record<string, unknown> = { id: int("id", row["id"]) }
  for (const [field, read] of readers) fields[field] = read(field, row[field])
  fields["athleteIds"] = ints("athleteIds", row["athleteIds"])
  fields["activiteIds"] = ints("activiteIds", row["activiteIds"])
  return trustedInstance(Session, fields as ConstructorParameters<typeof Session>[0])
}

/** `SELECT id, name FROM sessions` */
export const SessionSummaryFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(SessionSummary))

/** The same row read in bulk (see sql/columns.ts). */
export const sessionSummaryFromRow = (row: Record<string, unknown>): SessionSummary =>
  trustedInstance(SessionSummary, { id: int("id", row["id"]) as SessionId, name: textOrNull("name", row["name"]) })
