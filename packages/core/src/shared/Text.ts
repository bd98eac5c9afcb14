import { Schema } from "effect"
import { Limits } from "./Limits.ts"

/** PostgreSQL text cannot hold U+0000: such a value is bad input, refused before it reaches the database. */
const hasNoNul = Schema.makeFilter((s: string) => !s.includes("\u0000"), {
  expected: "a string without NUL characters"
})

/**
 * A length bound on text, counted as JSON Schema's `minLength`/`maxLength` count characters: in
 * Unicode code points (an emoji is one, where JavaScript's `length` counts two), so that the
 * OpenAPI document states the bound the server applies. The message is the one a UTF-16 length
 * check gave before.
 */
export const isMaxCharacters = (max: number) =>
  Schema.isMaxCodePoints(max, { expected: `a value with a length of at most ${max}` })
export const isMinCharacters = (min: number) =>
  Schema.isMinCodePoints(min, { expected: `a value with a length of at least ${min}` })

/** A name or other short label: at most 200 characters. */
export const ShortText = Schema.String.check(isMaxCharacters(Limits.shortText), hasNoNul)
/** Free text: at most 10,000 characters. */
export const LongText = Schema.String.check(isMaxCharacters(Limits.longText), hasNoNul)
/** A list (of ids, or of labels), bounded so that one request cannot ask for unbounded work. */
export const BoundedArray = <S extends Schema.Top>(id: S) => Schema.Array(id).check(Schema.isMaxLength(Limits.idArray))
