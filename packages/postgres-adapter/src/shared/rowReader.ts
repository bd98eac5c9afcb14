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
export const valuesFromRow = <F extends Schema.Struct.Fields>(fields: F): RowReader<Schema.Struct.Type<F>> =>
  compileReader(fields, null) as RowReader<Schema.Struct.Type<F>>

// oxlint-disable-next-line no-explicit-any -- any record class, whatever its options
type RecordClass = Schema.Top & { readonly fields: Schema.Struct.Fields } & (new(props: any, options?: any) => object)

/**
 * The reader of one of core's records (a `Schema.Class`) from its row. The instance is built
 * without the constructor's checks, for the reason above; it has the class's prototype and the
 * same own fields as `new Class(fields)`, so equality, `instanceof` and `Schema.is` treat it alike
 * (test/rowReader.test.ts).
 */
export const recordFromRow = <C extends RecordClass>(Class: C): RowReader<InstanceType<C>> =>
  compileReader(Class.fields, Class.prototype as object) as RowReader<InstanceType<C>>

/**
 * A function written for one kind of row, once, when its repository is built: each field read by
 * its own column reader and stored under its own name, in the schema's order, on an object of
 * `prototype` (a plain object for `null`). A loop over the field names does the same with computed
 * names, whose loads and stores V8 cannot specialise: on a listing that cost four times as much
 * per entry (docs/DECISIONS.md, "One way of reading rows"). The names are written into the code as
 * JSON string literals, and the readers are passed in, never written as text.
 */
const compileReader = (fields: Schema.Struct.Fields, prototype: object | null): RowReader<object> => {
  const names = Object.keys(fields)
  const readers = names.map((field) => columnReaderOf(field, fields[field]!.ast))
  const parameters = names.map((_, i) => `read${i}`)
  const stores = names.map((field, i) => {
    const name = JSON.stringify(field)
    return `target[${name}] = read${i}(${name}, row[${name}]);`
  })
  const body = `"use strict"; return function readRow(row) {
    const target = ${prototype === null ? "{}" : "Object.create(prototype)"};
    ${stores.join("\n    ")}
    return target;
  }`
  // Written once per kind of row, from schema field names only.
  return new Function("prototype", ...parameters, body)(prototype, ...readers) as RowReader<object>
}

/** Every row of a result, in order. */
export const readRows = <A>(read: RowReader<A>) => (rows: ReadonlyArray<Row>): Array<A> => rows.map(read)
