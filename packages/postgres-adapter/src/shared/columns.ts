/**
 * Readers of single column values as the driver returns them. Each checks the value's type and
 * range and throws on anything else, so a row that does not match its table ends the request as a
 * defect. The domain's own checks (lengths, formats) are not repeated: they ran on the values this
 * service wrote, and repeating them on every entry of a listing cost more than the query
 * (docs/DECISIONS.md, "One way of reading rows").
 */
export type ColumnReader<A> = (column: string, value: unknown) => A

const shapeError = (column: string, expected: string, value: unknown) =>
  new Error(`column ${column}: expected ${expected}, got ${value === null ? "null" : typeof value}`)

/** `bigint` or `int` as a JavaScript number; refuses what the number could not hold exactly. */
export const int: ColumnReader<number> = (column, value) => {
  const n = typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : NaN
  if (!Number.isSafeInteger(n)) throw shapeError(column, "a safe integer", value)
  return n
}

export const text: ColumnReader<string> = (column, value) => {
  if (typeof value !== "string") throw shapeError(column, "a string", value)
  return value
}

export const bool: ColumnReader<boolean> = (column, value) => {
  if (typeof value !== "boolean") throw shapeError(column, "a boolean", value)
  return value
}

export const date: ColumnReader<Date> = (column, value) => {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw shapeError(column, "a date", value)
  return value
}

export const bytes: ColumnReader<Uint8Array> = (column, value) => {
  if (!(value instanceof Uint8Array)) throw shapeError(column, "bytes", value)
  return value
}

/** One of a fixed set of values, e.g. a role stored as text. */
export const oneOf = <A>(values: ReadonlyArray<A>): ColumnReader<A> => {
  const allowed = new Set<unknown>(values)
  return (column, value) => {
    if (!allowed.has(value)) throw shapeError(column, `one of ${values.join(", ")}`, value)
    return value as A
  }
}

export const orNull = <A>(read: ColumnReader<A>): ColumnReader<A | null> => (column, value) =>
  value === null ? null : read(column, value)

/** An array column (or `ARRAY(SELECT …)`), each element read by `read`. */
export const listOf = <A>(read: ColumnReader<A>): ColumnReader<Array<A>> => (column, value) => {
  if (!Array.isArray(value)) throw shapeError(column, "an array", value)
  return value.map((element) => read(column, element))
}

/** A `jsonb` object column, each value read by `read`. */
export const recordOf = <A>(read: ColumnReader<A>): ColumnReader<Record<string, A>> => (column, value) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw shapeError(column, "an object", value)
  const values: Record<string, A> = {}
  for (const [key, element] of Object.entries(value)) values[key] = read(column, element)
  return values
}
