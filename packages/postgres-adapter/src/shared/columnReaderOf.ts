import { Schema, type SchemaAST } from "effect"
import { bool, bytes, type ColumnReader, date, int, listOf, oneOf, orNull, recordOf, text } from "./columns.ts"

/**
 * The column reader (shared/columns.ts) of a value of core's schema: a number is an integer column
 * (every number this service stores is an id, a duration or a count), a string a text column (or
 * `to_char` of a timestamp, or a `uuid`), a boolean, a date, bytes, one of a set of literals, a
 * `jsonb` object of one kind of value, a nullable or a list of any of these. A schema of another kind has no reader: the adapter refuses to start
 * rather than read a column it does not know how to check.
 */
export const columnReaderOf = (field: string, ast: SchemaAST.AST): ColumnReader<unknown> => {
  switch (ast._tag) {
    case "Number":
      return int
    case "String":
      return text
    case "Boolean":
      return bool
    case "Literal":
      return oneOf([ast.literal])
    case "Declaration":
      if (ast === Schema.Date.ast) return date
      if (ast === Schema.Uint8Array.ast) return bytes
      break
    case "Objects":
      // A `jsonb` object of one kind of value, e.g. the headers of a kept answer.
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1) {
        return recordOf(columnReaderOf(field, ast.indexSignatures[0]!.type))
      }
      break
    case "Arrays":
      if (ast.elements.length === 0 && ast.rest.length === 1) return listOf(columnReaderOf(field, ast.rest[0]!))
      break
    case "Union": {
      const held = ast.types.filter((member) => member._tag !== "Null")
      const read = held.every((member) => member._tag === "Literal")
        ? oneOf(held.map((member) => (member as SchemaAST.Literal).literal))
        : held.length === 1
        ? columnReaderOf(field, held[0]!)
        : undefined
      if (read === undefined) break
      return held.length < ast.types.length ? orNull(read) : read
    }
  }
  throw new Error(
    `No column reader for ${field} (${ast._tag}): expected an integer, a string, a boolean, a date, literals, or a nullable or list of these`
  )
}
