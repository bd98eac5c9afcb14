import { ClubApi } from "@club/contract/rest"
import { Effect, Schema } from "effect"
import { InvalidInput } from "../shared/InvalidInput.ts"

interface DeclaredEndpoint {
  readonly params: Schema.Top | undefined
  readonly query: Schema.Top | undefined
  readonly payload: ReadonlyMap<string, { readonly schemas: ReadonlyArray<Schema.Top> }>
}

const declaredEndpoint = (group: string, endpoint: string): DeclaredEndpoint =>
  (ClubApi.groups as unknown as Record<string, { readonly endpoints: Record<string, DeclaredEndpoint> }>)[group]!
    .endpoints[endpoint]!

/** Whether the endpoint takes a request argument (path parameters, query parameters or a body). */
export const takesRequest = (group: string, endpoint: string): boolean => {
  const declared = declaredEndpoint(group, endpoint)
  return declared.params !== undefined || declared.query !== undefined || declared.payload.size > 0
}

/** Every endpoint of the contract takes a JSON body, so its payload map holds one schema. */
const payloadSchema = (endpoint: DeclaredEndpoint): Schema.Top | undefined =>
  endpoint.payload.values().next().value?.schemas[0]

// Encoding runs every check of the schema (ranges, lengths, formats) without sending anything.
const checkSlot = (schema: Schema.Top | undefined, value: unknown) =>
  schema === undefined
    ? Effect.void
    : Effect.asVoid(Schema.encodeUnknownEffect(schema as Schema.Encoder<unknown>)(value))

/**
 * Checks a request against the endpoint's own schemas in the contract, so that bad arguments fail
 * as `InvalidInput` before any call, and a later schema failure can only mean a bad answer.
 */
export const checkRequest = (group: string, endpoint: string, request: unknown): Effect.Effect<void, InvalidInput> => {
  const declared = declaredEndpoint(group, endpoint)
  const given = (request ?? {}) as { readonly params?: unknown; readonly payload?: unknown }
  return Effect.all([
    "params" in given ? checkSlot(declared.params, given.params) : Effect.void,
    "payload" in given ? checkSlot(payloadSchema(declared), given.payload) : Effect.void
  ]).pipe(
    Effect.asVoid,
    Effect.mapError((cause) => new InvalidInput({ message: cause.message.replace(/\s*\n\s*/g, " "), cause }))
  )
}
