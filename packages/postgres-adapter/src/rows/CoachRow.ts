import { Coach } from "@club/core"
import { Schema } from "effect"
import { Int64 } from "../sql/Int64.ts"

/** `SELECT id, name FROM coaches` */
export const CoachFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(Coach))
