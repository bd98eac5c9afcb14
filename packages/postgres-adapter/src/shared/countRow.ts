import { Schema } from "effect"
import { valuesFromRow } from "./rowReader.ts"

/** `SELECT count(*)::int AS count ...` */
export const countFromRow = valuesFromRow({ count: Schema.Number })
