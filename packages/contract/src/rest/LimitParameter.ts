import { maxPageLimit, PageLimit } from "@club/core"
import { Schema, SchemaGetter } from "effect"

/** `limit` as a query parameter: decimal digits, then core's bounds (1 to `maxPageLimit`). */
export const LimitParameter = Schema.String.check(
  Schema.isPattern(/^[0-9]{1,6}$/u, { expected: `an integer from 1 to ${maxPageLimit}` })
).pipe(Schema.decodeTo(PageLimit, {
  decode: SchemaGetter.transform((text: string) => Number(text)),
  encode: SchemaGetter.transform((value: number) => String(value))
}))
