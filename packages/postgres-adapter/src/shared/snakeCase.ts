/**
 * The column that holds a record's field: the field's name in snake case (`isRecurrent`:
 * `is_recurrent`), as every table of this adapter names them.
 */
export const columnOf = (field: string): string => {
  const known = columns.get(field)
  if (known !== undefined) return known
  const column = field.replace(/[A-Z]/gu, (letter) => `_${letter.toLowerCase()}`)
  // Field names are the code's own (a record's declared fields, a filter's keys), so few: every
  // write names its columns, and the conversion is kept rather than made again per request.
  if (columns.size < maxKeptColumns) columns.set(field, column)
  return column
}
const columns = new Map<string, string>()
const maxKeptColumns = 1_000

/** A record's values keyed by their columns, for `sql.insert` and `sql.update`. */
export const byColumn = (values: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const row: Record<string, unknown> = {}
  for (const field of Object.keys(values)) row[columnOf(field)] = values[field]
  return row
}

/** A SELECT list of `fields`, each read from its column under its field's name (`coach_id AS "coachId"`). */
export const selectListOf = (fields: Iterable<string>, table = ""): string =>
  Array.from(fields, (field) => {
    const column = `${table === "" ? "" : `${table}.`}${columnOf(field)}`
    return column === field ? field : `${column} AS "${field}"`
  }).join(", ")
