import { Schema } from "effect"
import { Limits } from "./Limits.ts"

/** PostgreSQL text cannot hold U+0000: such a value is bad input, refused before it reaches the database. */
const hasNoNul = Schema.makeFilter((s: string) => !s.includes("\u0000"), { expected: "a string without NUL characters" })

/** A name or other short label: at most 200 characters. */
export const ShortText = Schema.String.check(Schema.isMaxLength(Limits.shortText), hasNoNul)
/** Free text: at most 10,000 characters. */
export const LongText = Schema.String.check(Schema.isMaxLength(Limits.longText), hasNoNul)
/** A list (of ids, or of labels), bounded so that one request cannot ask for unbounded work. */
export const BoundedArray = <S extends Schema.Top>(id: S) => Schema.Array(id).check(Schema.isMaxLength(Limits.idArray))
