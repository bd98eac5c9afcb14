/** `String.prototype.toWellFormed` (ES2024, in every Node this runs on), which the ES2023 library this compiles against lacks. */
export const wellFormed = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed()

/**
 * A value as JSON for PostgreSQL's `jsonb`, its text as the database stores text. A lone surrogate,
 * which JSON would carry as an escape `jsonb` refuses, becomes U+FFFD, as the driver's UTF-8
 * encoding of a text parameter makes it: a row or an event sent this way holds what it would hold
 * sent column by column.
 */
export const jsonAsStored = (value: unknown): string =>
  JSON.stringify(value, (_, item: unknown) => typeof item === "string" ? wellFormed(item) : item)

/** Rows as one JSON array (`jsonAsStored`), for a statement that inserts them with `jsonb_populate_recordset`. */
export const rowsAsJson = (rows: ReadonlyArray<Readonly<Record<string, unknown>>>): string => jsonAsStored(rows)
