import { Schema } from "effect"
import { type RowReader, valuesFromRow } from "./rowReader.ts"

const ofColumn = valuesFromRow({ of: Schema.Number })

/** A row of a gathered read (`shared/readsGathered.ts`): `reader`'s value, with the id of what it belongs to in the column `of`. */
export const ofRow = <A>(reader: RowReader<A>): RowReader<{ readonly of: number; readonly value: A }> => (row) => ({
  of: ofColumn(row).of,
  value: reader(row)
})
