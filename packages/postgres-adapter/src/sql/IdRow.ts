import { Schema } from "effect"
import { Int64 } from "./Int64.ts"

/** A row of which only the id is read, e.g. `RETURNING id`. */
export const IdRow = Schema.Struct({ id: Int64 })
