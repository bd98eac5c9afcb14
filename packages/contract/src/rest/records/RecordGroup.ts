import type { RecordClass, RecordTable } from "@club/core"
import type { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { created, idempotent, listOf, noContent } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"
import { Conflict, Forbidden, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { plainDtoDescriptions, type RecordDtoDescriptions, recordDtos, type RecordWithId } from "./RecordDtos.ts"

/** An endpoint's summary and description in the OpenAPI document. */
interface Words {
  readonly summary: string
  readonly description: string
}

/** What the OpenAPI document says of a record group's endpoints (a write's description then says how to retry it). */
export interface RecordTexts {
  readonly create: Words
  readonly all: Words & { readonly success: string }
  readonly get: Words
  readonly update: Words
  readonly delete: Words & { readonly success: string }
}

/** The texts of a plain kind of record: `a` names one (`"a venue"`), `plural` several (`"venues"`). */
export const plainRecordTexts = (a: string, plural: string): RecordTexts => {
  const noun = a.slice(a.indexOf(" ") + 1)
  return {
    create: { summary: `Create ${a}`, description: `Creates ${a}; its id is generated.` },
    all: { summary: `List ${plural}`, description: `Every ${noun}.`, success: `Every ${noun}.` },
    get: { summary: `Read ${a}`, description: `The ${noun} with this id; 404 when there is none.` },
    update: {
      summary: `Update ${a}`,
      description: `Replaces each field present and not null; 404 when there is no such ${noun}.`
    },
    delete: { summary: `Delete ${a}`, description: `404 when there is no such ${noun}.`, success: "Deleted." }
  }
}

/**
 * The REST group of a kind of record, from its `RecordTable`: create (`POST {prefix}/create`, 201
 * with the record), list (`GET {prefix}/all`), read (`GET {prefix}/:id`), update (`PUT
 * {prefix}/update/:id`, the record) and delete (`DELETE {prefix}/delete/:id`, 204), each with its
 * rule of the role table (the table's `operations`); the writes take `Idempotency-Key`. The bodies and the answer are the
 * table's `recordDtos` (described for `a`, `plural` by default), unless given.
 */
export const recordEndpoints = <
  const Name extends string,
  R extends RecordWithId,
  C extends RecordClass,
  U extends RecordClass,
  const DeleteErrors extends ReadonlyArray<Schema.Top> = readonly [typeof NotFound, typeof Forbidden]
>(
  name: Name,
  options: {
    readonly table: RecordTable<R, C, U>
    /** Where the paths start: `/admins`, or "" for the seed's root coach paths. */
    readonly prefix: "" | `/${string}`
    readonly texts: RecordTexts
    readonly dtos?: ReturnType<typeof recordDtos<R, C, U>>
    /** The DTOs' descriptions, when `dtos` is not given; `plainDtoDescriptions` of the entity by default. */
    readonly descriptions?: RecordDtoDescriptions
    /** What a delete may fail with; not found and forbidden by default. */
    readonly deleteErrors?: DeleteErrors
  }
) => {
  const { prefix, table, texts } = options
  const rule = table.operations
  const dtos = options.dtos ??
    recordDtos(table, options.descriptions ?? plainDtoDescriptions(table.entity.toLowerCase()))
  const id = pathId(table.record.fields.id as R["fields"]["id"])
  const deleteErrors = options.deleteErrors ?? ([NotFound, Forbidden] as unknown as DeleteErrors)
  return HttpApiGroup.make(name).add(
    HttpApiEndpoint.post("create", `${prefix}/create`, {
      payload: dtos.create,
      success: created(dtos.answer),
      error: [Conflict, Forbidden]
    }).annotateMerge(operation(texts.create.summary, `${texts.create.description} ${idempotent}`, rule.create))
      .middleware(Idempotency),
    HttpApiEndpoint.get("all", `${prefix}/all`, {
      success: listOf(dtos.answer, texts.all.success),
      error: Forbidden
    }).middleware(Paged)
      .annotateMerge(operation(texts.all.summary, texts.all.description, rule.list)),
    HttpApiEndpoint.get("get", `${prefix}/:id`, {
      params: { id },
      success: dtos.answer,
      error: [NotFound, Forbidden]
    }).annotateMerge(operation(texts.get.summary, texts.get.description, rule.read)),
    HttpApiEndpoint.put("update", `${prefix}/update/:id`, {
      params: { id },
      payload: dtos.update,
      success: dtos.answer,
      error: [NotFound, Forbidden]
    }).annotateMerge(operation(texts.update.summary, `${texts.update.description} ${idempotent}`, rule.update))
      .middleware(Idempotency),
    HttpApiEndpoint.delete("delete", `${prefix}/delete/:id`, {
      params: { id },
      success: noContent(texts.delete.success),
      // @ts-expect-error -- HttpApi checks that no error is a stream by a conditional type, which a type parameter leaves unresolved; `DeleteErrors` holds problems only
      error: deleteErrors
    }).annotateMerge(operation(texts.delete.summary, `${texts.delete.description} ${idempotent}`, rule.delete))
      .middleware(Idempotency)
  ).middleware(RawInput).middleware(Authentication)
}
