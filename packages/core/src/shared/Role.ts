import { Schema, SchemaGetter } from "effect"

export const Roles = ["ADMIN", "COACH", "ATHLETE"] as const
export const Role = Schema.Literals(Roles)
export type Role = typeof Role.Type

/**
 * The seed spells roles `Admin`, `Coach`, `Athlete` and once `ADMIN`; they are the same roles,
 * so role names compare case-insensitively.
 */
export const parseRole = (name: string): Role | undefined => {
  const upper = name.toUpperCase()
  return Roles.find((role) => role === upper)
}

/**
 * Accepts any spelling of a role on input and normalises it to the stored upper-case form. JSON
 * Schema, which has no case-insensitive match, lists the three roles as clients should write
 * them; the description says that other letter cases are read as the same role.
 */
export const RoleFromAnyCase = Schema.String.annotate({
  description: `${
    Roles.join(", ")
  }. Read in any letter case (\`coach\` is COACH), as the seed spells roles both ways; answers use the upper-case form.`
}).check(Schema.makeFilter((name: string) => parseRole(name) !== undefined, {
  expected: `one of ${Roles.join(", ")} (in any letter case)`,
  toJsonSchema: () => ({ enum: [...Roles] })
})).pipe(
  Schema.decodeTo(Role, {
    // The cast is checked: the target schema `Role` rejects anything that is not a role.
    decode: SchemaGetter.transform((name: string) => name.toUpperCase() as Role),
    encode: SchemaGetter.transform((role: Role) => role)
  })
)
