import type { Schema } from "effect"
import type { Operation } from "../shared/Permissions.ts"

/** A `Schema.Class` whose instances are `A`. */
export type RecordClass<A = unknown> =
  & Schema.Top
  & { readonly fields: Schema.Struct.Fields }
  // oxlint-disable-next-line no-explicit-any -- any record class, whatever its options
  & (new(props: any, options?: any) => A)

/** The operation of the role table each of a kind of record's five use-cases checks. */
export interface RecordOperations {
  readonly create: Operation
  readonly list: Operation
  readonly read: Operation
  readonly update: Operation
  readonly delete: Operation
}

/** A user's field that names a record of a kind (`adminId`); see `User`. */
export type UserLinkField = "coachId" | "athleteId" | "adminId"

/**
 * How one kind of record is kept: its class, its inputs, and the names it goes by. Each store
 * builds the record repository of the kind from it (create, read, list, update and delete), so a
 * plain kind of record has no repository written by hand:
 * - create stores the record's every field but `id` from the create input; the id is the input's
 *   `id` when it has one (not null), generated otherwise (CONTRACT.md "Identifiers");
 * - update replaces the fields of the update input that are present (a key left out, or
 *   `undefined`, keeps the stored value); an update with none answers the record as stored;
 * - delete removes the record; with `userLink`, the link of the user linked to it is cleared.
 * Lists are in id order.
 */
export interface RecordTable<
  R extends RecordClass<{ readonly id: number }>,
  C extends RecordClass,
  U extends RecordClass
> {
  /** The record's kind in errors and spans: `"Admin"`. */
  readonly entity: string
  /** Where the records are kept: a SQL table, also the REST group's name (`"admins"`). */
  readonly table: string
  /** The record's class; its `id` field is the record's branded id. */
  readonly record: R
  /** The create input's class; with an `id` field, a create may supply the id. */
  readonly create: C
  /** The update input's class: the fields an update may replace. */
  readonly update: U
  /** The rule of the role table each use-case checks (its REST endpoints document the same). */
  readonly operations: RecordOperations
  /** The user field that may name a record of this kind, cleared when the record is deleted. */
  readonly userLink?: UserLinkField
  /** A record of the kind as it travels (JSON): the example of its answers, and the values of tests. */
  readonly example: Readonly<Record<string, unknown>>
}

/** A `RecordTable`, its types taken from its classes. */
export const recordTable = <
  R extends RecordClass<{ readonly id: number }>,
  C extends RecordClass,
  U extends RecordClass
>(
  table: RecordTable<R, C, U>
): RecordTable<R, C, U> => table

/** Any `RecordTable`. */
export type AnyRecordTable = RecordTable<RecordClass<{ readonly id: number }>, RecordClass, RecordClass>

/** The fields of `A` a create or an update may give: all but `id`, in the class's order. */
export const valueFieldsOf = (table: AnyRecordTable): ReadonlyArray<string> =>
  Object.keys(table.record.fields).filter((field) => field !== "id")

/** The values among `fields` that `input` gives (present and not `undefined`), in the order of `fields`. */
export const givenValues = (input: unknown, fields: ReadonlyArray<string>): Record<string, unknown> => {
  const values: Record<string, unknown> = {}
  for (const field of fields) {
    const value = (input as Record<string, unknown>)[field]
    if (value !== undefined) values[field] = value
  }
  return values
}

/** The id a create input supplies, or null when it supplies none (or has no `id` field). */
export const suppliedIdOf = (input: unknown): number | null => ((input as { readonly id?: number | null }).id ?? null)
