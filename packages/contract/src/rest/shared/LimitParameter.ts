import { maxPageLimit, PageLimit } from "@club/core"
import { Predicate, Schema, SchemaGetter } from "effect"

const expected = `an integer from 1 to ${maxPageLimit}`

/**
 * `limit` as it arrives: decimal digits, read as a number, then held to core's bounds (1 to
 * `maxPageLimit`). A plain string schema would have OpenAPI say "digits", which takes 0 and 999999
 * that the server refuses; it says the integer from 1 to `maxPageLimit` instead, as the seed's
 * paged lists do, so that the document refuses what the server refuses.
 */
const LimitText = Schema.declare(Predicate.isString, {
  expected: "a string",
  toCodecStringTree: () => undefined
}).check(
  Schema.makeFilter(
    (text: string) => /^[0-9]{1,6}$/u.test(text) || `Expected ${expected}, got ${JSON.stringify(text)}`,
    {
      expected,
      toJsonSchema: () => ({ type: "integer", minimum: 1, maximum: maxPageLimit })
    }
  )
)

/** `limit` as a query parameter: decimal digits, then core's bounds (1 to `maxPageLimit`). */
export const LimitParameter = LimitText.pipe(Schema.decodeTo(PageLimit, {
  decode: SchemaGetter.transform((text: string) => Number(text)),
  encode: SchemaGetter.transform((value: number) => String(value))
}))
