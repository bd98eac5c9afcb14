/**
 * The column that holds a record's field: the field's name in snake case (`isRecurrent`:
 * `is_recurrent`), as every table of this adapter names them.
 */
export const columnOf = (field: string): string => field.replace(/[A-Z]/gu, (letter) => `_${letter.toLowerCase()}`)

/** A record's values keyed by their columns, for `sql.insert` and `sql.update`. */
export const byColumn = (values: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).map(([field, value]) => [columnOf(field), value]))

/** A SELECT list of `fields`, each read from its column under its field's name (`coach_id AS "coachId"`). */
export const selectListOf = (fields: Iterable<string>, table = ""): string =>
  Array.from(fields, (field) => {
    const column = `${table === "" ? "" : `${table}.`}${columnOf(field)}`
    return column === field ? field : `${column} AS "${field}"`
  }).join(", ")
