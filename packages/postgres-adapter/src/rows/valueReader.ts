import type { Schema } from "effect"
import { boolOrNull, intOrNull, textOrNull, texts } from "../sql/columns.ts"

type Reader = (column: string, value: unknown) => unknown

/**
 * The bulk reader (sql/columns.ts) of one of core's values, picked by its schema: a nullable
 * integer (ids and durations are `bigint` columns), string (text, and `to_char` of a timestamp) or
 * boolean, or a list of strings (a `text[]` column). A schema of another kind has no reader: the
 * adapter refuses to start rather than read a column it does not know how to check.
 */
export const valueReader = (field: string, schema: Schema.Constraint): Reader => {
  const ast = schema.ast
  if (ast._tag === "Arrays" && ast.rest[0]?._tag === "String") return texts
  const held = ast._tag === "Union" ? ast.types.find((member) => member._tag !== "Null") : undefined
  switch (held?._tag) {
    case "Number":
      return intOrNull
    case "String":
      return textOrNull
    case "Boolean":
      return boolOrNull
    default:
      throw new Error(
        `No column reader for ${field}: expected a nullable integer, string or boolean, or a list of strings`
      )
  }
}

/** A reader of each of the values, under its field's name. */
export const valueReaders = (values: Schema.Struct.Fields) =>
  Object.entries(values).map(([field, schema]) => [field, valueReader(field, schema)] as const)
