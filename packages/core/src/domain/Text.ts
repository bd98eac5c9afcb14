import { Schema } from "effect"
import { Limits } from "./Limits.ts"

/** A name or other short label: at most 200 characters. */
export const ShortText = Schema.String.check(Schema.isMaxLength(Limits.shortText))
/** Free text: at most 10,000 characters. */
export const LongText = Schema.String.check(Schema.isMaxLength(Limits.longText))
/** A list (of ids, or of labels), bounded so that one request cannot ask for unbounded work. */
export const BoundedArray = <S extends Schema.Top>(id: S) => Schema.Array(id).check(Schema.isMaxLength(Limits.idArray))
