import { Schema } from "effect"
import { valuesFromRow } from "./rowReader.ts"

/** A row of which only the id is read, e.g. `RETURNING id`. */
export const idFromRow = valuesFromRow({ id: Schema.Number })
