/**
 * Readers of single column values as the driver returns them, for rows read in bulk (lists),
 * where decoding every row through its Schema cost more than the query (bench/README.md). They
 * check each value's type and range and throw on anything else, so a row that does not match its
 * table still ends the request as a defect; the domain's own checks (lengths, formats) already
 * ran when the row was written, and the Schema.Class instances are built without repeating them.
 */

const shapeError = (column: string, expected: string, value: unknown) =>
  new Error(`column ${column}: expected ${expected}, got ${value === null ? "null" : typeof value}`)

/** `bigint` as a JavaScript number; refuses what the number could not hold exactly. */
export const int = (column: string, value: unknown): number => {
  const n = typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : NaN
  if (!Number.isSafeInteger(n)) throw shapeError(column, "a safe integer", value)
  return n
}

export const intOrNull = (column: string, value: unknown): number | null => (value === null ? null : int(column, value))

export const ints = (column: string, value: unknown): Array<number> => {
  if (!Array.isArray(value)) throw shapeError(column, "an array", value)
  return value.map((element) => int(column, element))
}

export const text = (column: string, value: unknown): string => {
  if (typeof value !== "string") throw shapeError(column, "a string", value)
  return value
}

export const texts = (column: string, value: unknown): Array<string> => {
  if (!Array.isArray(value)) throw shapeError(column, "an array", value)
  return value.map((element) => text(column, element))
}

export const textOrNull = (
  column: string,
  value: unknown
): string | null => (value === null ? null : text(column, value))

export const boolOrNull = (column: string, value: unknown): boolean | null => {
  if (value !== null && typeof value !== "boolean") throw shapeError(column, "a boolean", value)
  return value
}

export const date = (column: string, value: unknown): Date => {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw shapeError(column, "a date", value)
  return value
}
