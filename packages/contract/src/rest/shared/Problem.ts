import { type Cause, Effect, ErrorReporter, Schema } from "effect"
import { HttpServerRespondable, HttpServerResponse } from "effect/http"

/**
 * An RFC 9457 problem (`application/problem+json`) as a yieldable error class, declared on an
 * endpoint like any error: HttpApi renders it with its status, documents it, and the typed client
 * decodes it back into the class.
 *
 * It is effect 4.1's `HttpApiError.Problem`, with the same wire form and the same decoding rules,
 * built from the Schema and HTTP pieces that every effect 4.x has. Effect 4.0 lacks
 * `HttpApiError.Problem`; with this the published packages take any effect 4.x the app has, rather
 * than forcing 4.1 on it (docs/DECISIONS.md, "Packages another team installs").
 *
 * - `type` must be the declared one: it tells apart classes that share a status.
 * - `status` and `title` are fixed by the declaration. A problem that omits them, or carries other
 *   values, still decodes into the class (a proxy may rewrite them), and the class always encodes
 *   its own.
 * - `detail` and `instance` are optional; a value of the wrong type is dropped, not refused.
 * - The extension members are the class's own fields, checked both ways; unknown members are
 *   not kept.
 * - `message` is the `detail`, or the `title` when there is none.
 */
export const contentType = "application/problem+json"

const optionalMember = <S extends Schema.Constraint>(schema: S) =>
  Schema.optionalKey(schema).pipe(Schema.catchDecoding(() => Effect.succeedNone))

const fixedMember = <const L extends string | number>(value: L) =>
  Schema.tag(value).pipe(
    Schema.withDecodingDefaultKey(Effect.succeed(value)),
    Schema.catchDecoding(() => Effect.succeedSome(value))
  )

export interface ProblemDeclaration<Type extends string, Status extends number> {
  /** The problem type URI: it tells apart problem classes that share a status. */
  readonly type: Type
  readonly status: Status
  /** The short summary of the problem type. */
  readonly title: string
  /** When the service answers it: the description of the answer in the OpenAPI document. */
  readonly description?: string
}

type FixedMember<L extends string | number> = Schema.middlewareDecoding<
  Schema.withDecodingDefaultKey<Schema.tag<L>>,
  never
>
type OptionalMember<S extends Schema.Constraint> = Schema.middlewareDecoding<Schema.optionalKey<S>, never>

export interface ProblemMembers<Type extends string, Status extends number> {
  readonly type: Schema.tag<Type>
  readonly status: FixedMember<Status>
  readonly title: FixedMember<string>
  readonly detail: OptionalMember<Schema.String>
  readonly instance: OptionalMember<Schema.String>
}

export type ProblemExtensionFields = Schema.Struct.Fields & {
  readonly type?: never
  readonly status?: never
  readonly title?: never
}

export type ProblemFields<Type extends string, Status extends number, Fields extends Schema.Struct.Fields> =
  & Omit<ProblemMembers<Type, Status>, keyof Fields>
  & Fields

export interface ProblemClass<
  Self,
  Tag extends string,
  Type extends string,
  Status extends number,
  Fields extends Schema.Struct.Fields
> extends
  Schema.Class<
    Self,
    Schema.Struct<ProblemFields<Type, Status, Fields>>,
    Cause.YieldableError & HttpServerRespondable.Respondable & { readonly _tag: Tag }
  >
{}

/** `class NotFound extends Problem<NotFound>()("NotFound", { type, status, title }, { ...extensions }) {}` */
export const Problem = <Self>() =>
<
  const Tag extends string,
  const Type extends string,
  const Status extends number,
  const Fields extends ProblemExtensionFields = {}
>(
  tag: Tag,
  declaration: ProblemDeclaration<Type, Status>,
  fields?: Fields
): ProblemClass<Self, Tag, Type, Status, Fields> => {
  // The body as it travels, named after the class in the OpenAPI document (`components/schemas`).
  const struct = Schema.Struct({
    detail: optionalMember(Schema.String.annotate({ description: "What was wrong, for a person to read." })),
    instance: optionalMember(Schema.String.annotate({ description: "The path of the request." })),
    ...fields,
    type: Schema.tag(declaration.type),
    status: fixedMember(declaration.status),
    title: fixedMember(declaration.title)
  }).annotate({
    identifier: tag,
    description: `An RFC 9457 problem (application/problem+json), status ${declaration.status} ${declaration.title}.`
  })
  const encode = Schema.encodeUnknownEffect(struct)
  // `Self` is the caller's class, unknown here: the factory's own signature keeps it checked.
  const Base = Schema.Error<{ readonly _tag: Tag }>(tag)(struct, {
    description: declaration.description ?? declaration.title,
    httpApiStatus: declaration.status,
    "~httpApiEncoding": { _tag: "Json", contentType }
  }) as unknown as { readonly prototype: object }
  Object.assign(Base.prototype, {
    _tag: tag,
    // A 4xx is the caller's mistake, not the service's: error reporters leave it out.
    [ErrorReporter.ignore]: declaration.status < 500,
    [HttpServerRespondable.symbol](this: unknown) {
      return Effect.map(
        encode(this),
        (body) => HttpServerResponse.jsonUnsafe(body, { status: declaration.status, contentType })
      )
    }
  })
  Object.defineProperty(Base.prototype, "message", {
    get(this: { readonly detail?: string | undefined }) {
      return this.detail ?? declaration.title
    },
    configurable: true
  })
  return Base as never
}
