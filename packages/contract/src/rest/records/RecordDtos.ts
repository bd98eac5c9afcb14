import type { RecordClass, RecordTable } from "@club/core"
import { Schema } from "effect"
import { documented } from "../shared/documented.ts"
import { seedFields } from "../shared/SeedInput.ts"

/** A record class whose `id` is a branded id schema of core. */
export type RecordWithId = RecordClass<{ readonly id: number }> & {
  readonly fields: { readonly id: Schema.Codec<number, number> }
}

/** What the OpenAPI document says of a kind of record's answer and of its two bodies. */
export interface RecordDtoDescriptions {
  readonly answer: string
  readonly create: string
  readonly update: string
}

/** The descriptions of a plain kind of record, `noun` naming one (`"venue"`). */
export const plainDtoDescriptions = (noun: string): RecordDtoDescriptions => ({
  answer: `A ${noun}.`,
  create: `The body of a ${noun} create.`,
  update: `The body of a ${noun} update: each field present and not null replaces the stored one; \`id\` is ignored.`
})

/** Core's record and input fields decode without services; generic code cannot see it. */
const withoutServices = <S extends Schema.Top>(schema: S) => schema as S & { readonly DecodingServices: never }

/**
 * The wire forms of a kind of record, from its `RecordTable`: the answer is the record
 * (`Schema.Struct` of its fields), the create body its create input in the seed's wire form
 * (`seedFields`), and the update body its update input so, with an `id` that is ignored. Each is
 * named after the entity (`Admin`, `AdminCreate`, `AdminUpdate`) and has the table's example.
 */
export const recordDtos = <R extends RecordWithId, C extends RecordClass, U extends RecordClass>(
  table: RecordTable<R, C, U>,
  descriptions: RecordDtoDescriptions
) => {
  const { id: _, ...values } = table.example
  const answer = Schema.Struct(table.record.fields as R["fields"])
  const create = Schema.Struct(seedFields(table.create.fields as C["fields"]))
  const update = Schema.Struct({
    id: Schema.optional(Schema.NullOr(table.record.fields.id as R["fields"]["id"])),
    ...seedFields(table.update.fields as U["fields"])
  })
  return {
    answer: documented(withoutServices(answer), table.entity, descriptions.answer, [table.example]),
    create: documented(withoutServices(create), `${table.entity}Create`, descriptions.create, [values]),
    update: documented(withoutServices(update), `${table.entity}Update`, descriptions.update, [values])
  }
}
