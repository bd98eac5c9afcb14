import type { Schema } from "effect"
import { boolOrNull, intOrNull, textOrNull } from "../sql/columns.ts"

type Reader = (column: string, value: unknown) => unknown

/**
 * The bulk reader (sql/columns.ts) of a nullable value of core, picked by the schema of what it
 * holds: an integer (ids and durations are `bigint` columns), a string (text, and `to_char` of a
 * timestamp) or a boolean. A schema of another kind has no reader: the adapter refuses to start
 * rather than read a column it does not know how to check.
 */
export const nullableValueReader = (field: string, schema: Schema.Constraint): Reader => {
  const ast = schema.ast
  const held = ast._tag === "Union" ? ast.types.find((member) => member._tag !== "Null") : undefined
  switch (held?._tag) {
    case "Number":
      return intOrNull
    case "String":
      return textOrNull
    case "Boolean":
      return boolOrNull
    default:
      throw new Error(`No column reader for ${field}: expected a nullable integer, string or boolean`)
  }
}
