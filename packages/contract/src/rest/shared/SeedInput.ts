import { Schema } from "effect"

/**
 * The seed's DTOs let a client leave out, or send as null, every field that core's input classes
 * declare as nullable, optional or a list: on the wire absent and null both mean "not given".
 * Core declares each input once; its wire form and its way back into core are derived here, so that
 * a field added to a core input is on the wire, in the OpenAPI document and in the SDK at once.
 */
type SeedField<S extends Schema.Constraint> = S extends Schema.optionalKey<infer Inner extends Schema.Constraint>
  ? Inner extends Schema.NullOr<Schema.Constraint> ? Schema.optional<Inner> : S
  : S extends Schema.NullOr<Schema.Constraint> ? Schema.optional<S>
  : S extends Schema.$Array<Schema.Constraint> ? Schema.optional<Schema.NullOr<S>>
  : S

export type SeedFields<Fields extends Schema.Struct.Fields> = { readonly [K in keyof Fields]: SeedField<Fields[K]> }

const isOptionalKey = (field: Schema.Constraint): field is Schema.optionalKey<Schema.Top> =>
  field.ast.context?.isOptional === true && "schema" in field

const isNullable = (field: Schema.Constraint): boolean =>
  field.ast._tag === "Union" && field.ast.types.some((member) => member._tag === "Null")

const isList = (field: Schema.Constraint): boolean => field.ast._tag === "Arrays"

const seedField = (field: Schema.Constraint): Schema.Constraint => {
  if (isOptionalKey(field)) return isNullable(field.schema) ? Schema.optional(field.schema) : field
  if (isNullable(field)) return Schema.optional(field as Schema.Top)
  if (isList(field)) return Schema.optional(Schema.NullOr(field as Schema.Top))
  return field
}

/**
 * The wire fields of core input fields: a nullable field (`NullOr`, or an optional key holding
 * one) or a list may be absent or null; an optional key that is not nullable stays so (a user's
 * `name` may be left out, not nulled); any other field is required as core requires it.
 */
export const seedFields = <Fields extends Schema.Struct.Fields>(fields: Fields): SeedFields<Fields> =>
  Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, seedField(field)])) as SeedFields<Fields>

/** One of core's input classes: its fields, and its constructor. */
interface InputClass<Fields extends Schema.Struct.Fields, Instance> {
  readonly fields: Fields
  // oxlint-disable-next-line no-explicit-any -- the class's own props type; the fields say what it holds
  new(props: any, options?: Schema.MakeOptions): Instance
}

/**
 * A request body decoded by its `seedFields` schema as the core input it stands for. A field not
 * given becomes what core means by nothing: `[]` for a list, the key left out for an optional key,
 * null otherwise. `keepNull` names optional keys where the seed gives null a meaning of its own (a
 * user's `email: null` clears the address). Fields that core's class does not declare are left
 * behind (the seed's ignored ones, such as an athlete's `groupes`). The body was checked when it
 * was decoded, so the class is built without running its checks again.
 */
export const toCoreInput = <Fields extends Schema.Struct.Fields, Instance>(
  Class: InputClass<Fields, Instance>,
  body: { readonly [K in keyof Fields]?: unknown },
  options: { readonly keepNull?: ReadonlyArray<keyof Fields & string> } = {}
): Instance => {
  const props: Record<string, unknown> = {}
  const given = body as Record<string, unknown>
  for (const [key, field] of Object.entries(Class.fields)) {
    const value = given[key]
    if (value !== undefined && (value !== null || options.keepNull?.includes(key) === true)) props[key] = value
    else if (isOptionalKey(field)) continue
    else props[key] = isList(field) ? [] : null
  }
  return new Class(props, { disableChecks: true })
}
