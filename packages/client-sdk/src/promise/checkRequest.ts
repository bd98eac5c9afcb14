import { ClubApi } from "@club/contract/rest"
import { Effect, Schema } from "effect"
import { InvalidInput } from "./InvalidInput.ts"
import type { Plain } from "./Plain.ts"

type Groups = (typeof ClubApi)["groups"]
type Endpoints<G extends keyof Groups> = Groups[G]["endpoints"]

type Slot<G extends keyof Groups, E extends keyof Endpoints<G>, K extends "~Params" | "~Payload"> =
  Endpoints<G>[E] extends { readonly [_ in K]: infer S extends Schema.Top } ? S : never

type Side<S extends Schema.Top, Name extends string, Brands extends "plain" | "branded"> = [S] extends [never] ? {}
  : { readonly [_ in Name]: Brands extends "plain" ? Plain<S["Type"]> : S["Type"] }

/** What a Promise-face caller writes: the contract's values, without brands. */
export type PlainRequest<G extends keyof Groups, E extends keyof Endpoints<G>> =
  & Side<Slot<G, E, "~Params">, "params", "plain">
  & Side<Slot<G, E, "~Payload">, "payload", "plain">

/** What the typed client takes: the same values, branded. */
export type CheckedRequest<G extends keyof Groups, E extends keyof Endpoints<G>> =
  & Side<Slot<G, E, "~Params">, "params", "branded">
  & Side<Slot<G, E, "~Payload">, "payload", "branded">

interface DeclaredEndpoint {
  readonly params: Schema.Top | undefined
  readonly payload: ReadonlyMap<string, { readonly schemas: ReadonlyArray<Schema.Top> }>
}

const declaredEndpoint = (group: PropertyKey, endpoint: PropertyKey): DeclaredEndpoint =>
  (ClubApi.groups as unknown as Record<PropertyKey, { readonly endpoints: Record<PropertyKey, DeclaredEndpoint> }>)[group]!
    .endpoints[endpoint]!

/** Every endpoint of the contract takes a JSON body, so its payload map holds one schema. */
const payloadSchema = (endpoint: DeclaredEndpoint): Schema.Top | undefined =>
  endpoint.payload.values().next().value?.schemas[0]

// Encoding runs every check of the schema (ranges, lengths, formats) without sending anything.
const checkSlot = (schema: Schema.Top | undefined, value: unknown) =>
  schema === undefined ? Effect.void : Effect.asVoid(Schema.encodeUnknownEffect(schema as Schema.Encoder<unknown>)(value))

/**
 * Checks a request against the endpoint's own schemas in the contract, so that bad arguments
 * fail as `InvalidInput` before any call, and a later schema failure can only mean a bad answer.
 * Once checked, the plain values are the branded ones: brands exist only in the types.
 */
export const checkRequest = <G extends keyof Groups, E extends keyof Endpoints<G>>(
  group: G,
  endpoint: E,
  request: PlainRequest<G, E>
): Effect.Effect<CheckedRequest<G, E>, InvalidInput> => {
  const declared = declaredEndpoint(group, endpoint)
  const given = request as { readonly params?: unknown; readonly payload?: unknown }
  return Effect.all([
    "params" in given ? checkSlot(declared.params, given.params) : Effect.void,
    "payload" in given ? checkSlot(payloadSchema(declared), given.payload) : Effect.void
  ]).pipe(
    Effect.as(request as unknown as CheckedRequest<G, E>),
    Effect.mapError((cause) => new InvalidInput({ message: cause.message.replace(/\s*\n\s*/g, " "), cause }))
  )
}
