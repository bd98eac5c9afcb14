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

/** Fails with every unknown id of one field; the known rows stay locked for the transaction. */
export const requireKnownIds = (sql: SqlClient, references: References) =>
  Effect.gen(function*() {
    const unknown = yield* unknownIds(sql, references.table, references.ids)
    if (unknown.length > 0) {
      return yield* new UnknownReferences({ field: references.field, entity: references.entity, ids: unknown })
    }
  })
