import { Table } from "../shared/Table.ts"

/** The tables of the kinds of records, one per `RecordTable.entity`, each made on its first use. */
export class RecordTables {
  // oxlint-disable-next-line no-explicit-any -- each table holds its own kind; `of` types it
  readonly #tables = new Map<string, Table<any>>()

  /** The table of the records of `entity`; the caller names the type its records have. */
  of<A extends { readonly id: number }>(entity: string): Table<A> {
    let table = this.#tables.get(entity)
    if (table === undefined) {
      table = new Table<A>(entity)
      this.#tables.set(entity, table)
    }
    return table
  }
}
