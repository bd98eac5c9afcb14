import { Limits } from "@club/core"
import { Predicate, Schema, SchemaGetter } from "effect"

/**
 * An id in a path is written one way only: decimal digits, no sign, no leading zero, no exponent,
 * no fraction, no spaces, within the safe range.
 * HttpApi's own number-from-string reads `07`, `+7`, `7e0` or `7.0` as record 7; here they are
 * bad input, like any other value that is not an id.
 */
const isCanonicalId = (text: string) => /^[1-9][0-9]*$/u.test(text) && Number.isSafeInteger(Number(text))

const expected =
  `an id: a positive integer in decimal digits without sign, leading zero or exponent, at most ${Limits.maxGeneratedId}`

/**
 * The path segment as it arrives: a string, already in the form every path parameter takes, so
 * HttpApi adds no codec of its own. OpenAPI describes it as the integer it spells, which is what
 * a client serialises.
 */
const CanonicalIdSegment = Schema.declare(Predicate.isString, {
  expected: "a string",
  toCodecStringTree: () => undefined
}).check(
  Schema.makeFilter((text: string) => isCanonicalId(text) || `Expected ${expected}, got ${JSON.stringify(text)}`, {
    expected,
    toJsonSchema: () => ({ type: "integer", minimum: 1, maximum: Limits.maxGeneratedId })
  })
)

/** The path parameter holding an id of the kind `id` (a branded id schema of core). */
export const pathId = <S extends Schema.Codec<number, number>>(id: S) =>
  CanonicalIdSegment.pipe(Schema.decodeTo(id, {
    decode: SchemaGetter.transform((text: string) => Number(text)),
    encode: SchemaGetter.transform((value: number) => String(value))
  }))
