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
 * Fails with the unknown ids of the first field, in the order given, that has any; `unknown` holds
 * each field's unknown ids, as `unknownIds` answers them.
 */
export const failOnUnknown = (
  references: ReadonlyArray<References>,
  unknown: ReadonlyArray<ReadonlyArray<number>>
): Effect.Effect<void, UnknownReferences> => {
  const index = unknown.findIndex((ids) => ids.length > 0)
  if (index < 0) return Effect.void
  const { entity, field } = references[index]!
  return Effect.fail(new UnknownReferences({ field, entity, ids: [...unknown[index]!] }))
}

/**
 * Checks every field's references in one statement and fails with the unknown ids of the first
 * field, in the order given, that has any; the known rows stay locked for the transaction.
 */
export const requireKnownIds = (sql: SqlClient, ...references: ReadonlyArray<References>) =>
  Effect.flatMap(unknownIds(sql, references), (unknown) => failOnUnknown(references, unknown))
