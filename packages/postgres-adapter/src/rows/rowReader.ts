import type { Schema } from "effect"
import { columnReaderOf } from "./columnReaderOf.ts"

/** One row of a result, keyed by field name (the SQL names each column after its field). */
export type Row = Readonly<Record<string, unknown>>

export type RowReader<A> = (row: Row) => A

/**
 * The reader of rows holding `fields`, each value read by the column reader its schema picks and
 * kept under its field's name. This is how every row of this adapter is read: no per-row Schema
 * pass, which on a listing cost more than the query (docs/DECISIONS.md, "One way of reading rows").
 */
export const valuesFromRow = <F extends Schema.Struct.Fields>(fields: F): RowReader<Schema.Struct.Type<F>> => {
  const fill = fillerOf(fields)
  return (row) => fill({}, row) as Schema.Struct.Type<F>
}

/** Sets each of `fields` on `target` from `row`, field by field in the schema's order. */
const fillerOf = (fields: Schema.Struct.Fields) => {
  // Two plain arrays and an indexed loop: this runs for every entry of a listing.
  const names = Object.keys(fields)
  const readers = names.map((field) => columnReaderOf(field, fields[field]!.ast))
  return <T extends Record<string, unknown>>(target: T, row: Row): T => {
    for (let i = 0; i < names.length; i++) {
      const field = names[i]!
      ;(target as Record<string, unknown>)[field] = readers[i]!(field, row[field])
    }
    return target
  }
}

// oxlint-disable-next-line no-explicit-any -- any record class, whatever its options
type RecordClass = Schema.Top & { readonly fields: Schema.Struct.Fields } & (new(props: any, options?: any) => object)

/**
 * The reader of one of core's records (a `Schema.Class`) from its row. The instance is built
 * without the constructor's checks, for the reason above; it has the class's prototype and the
 * same own fields as `new Class(fields)`, so equality, `instanceof` and `Schema.is` treat it alike
 * (test/rowReader.test.ts).
 */
export const recordFromRow = <C extends RecordClass>(Class: C): RowReader<InstanceType<C>> => {
  const fill = fillerOf(Class.fields)
  const prototype = Class.prototype as object
  return (row) => fill(Object.create(prototype) as InstanceType<C> & Record<string, unknown>, row)
}

/** Every row of a result, in order. */
export const readRows = <A>(read: RowReader<A>) => (rows: ReadonlyArray<Row>): Array<A> => rows.map(read)
