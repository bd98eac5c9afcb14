import { Schema, SchemaGetter } from "effect"

/**
 * `bigint` columns (ids, durations, counts) arrive from the driver as JavaScript BigInt.
 * Every value this service stores stays within JavaScript's safe integer range, and the
 * target `Schema.Int` rejects anything outside it rather than losing precision.
 */
export const Int64 = Schema.BigInt.pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transform((value: bigint) => Number(value)),
    encode: SchemaGetter.transform((value: number) => BigInt(value))
  })
)
