import { toCoreInput } from "@club/contract/rest"
import type { AnyRecordTable, DomainError, RecordOperations } from "@club/core"
import { type Context, Effect, type Layer } from "effect"
import { type HttpApi, HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { ServedApi } from "../ServedApi.ts"
import { problems, problemsWithReason } from "../shared/problems.ts"

type AnyEffect = Effect.Effect<unknown, DomainError, unknown>

/** The use-cases `makeRecordUseCases` makes, as these handlers call them. */
interface RecordUseCases {
  readonly operations: RecordOperations
  create(input: never): AnyEffect
  list(): AnyEffect
  get(id: never): AnyEffect
  update(id: never, input: never): AnyEffect
  delete(id: never): AnyEffect
}

/** A group of the served contract, by its name; `recordEndpoints` made the ones given here. */
type GroupName = typeof ServedApi extends HttpApi.HttpApi<string, infer Groups> ? HttpApiGroup.Identifier<Groups>
  : never

/**
 * The five handlers of a group made by `recordEndpoints`: the body into core's input with
 * `toCoreInput` on the way in, the record itself on the way out. A failure of a create or a list is
 * its category's problem; a read, an update or a delete of a missing record answers the seed's
 * reason, `<Entity> not found`.
 */
export const recordHandlers = <const Group extends GroupName, I>(
  group: Group,
  options: { readonly table: AnyRecordTable; readonly service: Context.Key<I, RecordUseCases> }
): Layer.Layer<HttpApiGroup.Service<"club", Group>, never, I> => {
  const { service, table } = options
  const notFound = problemsWithReason(`${table.entity} not found`)
  interface Request {
    readonly params: { readonly id: never }
    readonly payload: never
  }
  return HttpApiBuilder.group(
    ServedApi,
    group,
    // The group's endpoints are the same five whatever the kind, which its type cannot show here.
    Effect.fn(function*(handlers: RecordGroupHandlers) {
      const records = yield* service
      return handlers
        .handle(
          "create",
          ({ payload }: Request) => records.create(toCoreInput(table.create, payload) as never).pipe(problems)
        )
        .handle("all", () => records.list().pipe(problems))
        .handle("get", ({ params }: Request) => records.get(params.id).pipe(notFound))
        .handle(
          "update",
          ({ params, payload }: Request) =>
            records.update(params.id, toCoreInput(table.update, payload) as never).pipe(notFound)
        )
        .handle("delete", ({ params }: Request) => records.delete(params.id).pipe(notFound))
    }) as never
  ) as never
}

/** What the build function is handed, as far as these handlers use it. */
interface RecordGroupHandlers {
  handle(name: string, handler: (request: never) => Effect.Effect<unknown, unknown, unknown>): RecordGroupHandlers
}
