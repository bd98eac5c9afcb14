import { Effect } from "effect"
import { type EntityKind, UnknownReferences } from "@club/core"
import type { SqlClient } from "effect/sql/SqlClient"
import { unknownIds } from "./unknownIds.ts"

export interface References {
  /** The input field that named the ids, as the error reports it. */
  readonly field: string
  readonly entity: EntityKind
  readonly table: string
  readonly ids: ReadonlyArray<number>
}

/**
 * Checks every field's references in one statement and fails with the unknown ids of the first
 * field, in the order given, that has any; the known rows stay locked for the transaction.
 */
export const requireKnownIds = (sql: SqlClient, ...references: ReadonlyArray<References>) =>
  Effect.gen(function*() {
    const unknown = yield* unknownIds(sql, references)
    const index = unknown.findIndex((ids) => ids.length > 0)
    if (index >= 0) {
      const { entity, field } = references[index]!
      return yield* new UnknownReferences({ field, entity, ids: unknown[index]! })
    }
  })
