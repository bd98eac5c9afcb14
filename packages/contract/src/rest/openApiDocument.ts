import { idempotencyKeyPattern, Limits } from "@club/core"
import type { OpenApi } from "effect/http-api"
import { idempotentReplayedHeader } from "./shared/Idempotency.ts"
import { listLinkHeader, listPagingParameters } from "./shared/Paged.ts"

/**
 * What the OpenAPI document says of the whole API: the `info` description, the servers, the license.
 */
export const apiDescription =
  `The backend a sports club runs to manage its athletes, coaches, training sessions and their activities, with role-based access for admins, coaches and athletes.

The seed's REST contract is kept exactly, quirks included: its paths, methods, status codes and body kinds (JSON, plain text, empty). Where the seed pins a failure body (plain text, empty, or even a 204), that body is what the operation answers; every other failure is an RFC 9457 problem (\`application/problem+json\`) whose \`detail\` says what was wrong and whose \`requestId\` is the request's \`X-Request-Id\`.

**Authentication.** \`POST /auth/login\` exchanges a name and password for a bearer token; every other operation but the health probes needs \`Authorization: Bearer <token>\`. Each operation says who may call it. Without a valid token: 401; a role that may not: 403, before the request is read.

**Bad input.** A body, parameter or header that does not decode is refused: 400 problem+json naming each field, or the shape the seed pins for the operation. Bodies are \`application/json\` (415 otherwise), at most 1 MiB (413). Members a body does not know are ignored, and \`null\` means the same as an absent member. Text never holds U+0000.

**Ids** are positive integers, at most ${Limits.maxGeneratedId} (2^53-1), written in paths in plain decimal (\`/session/7\`, not \`07\` or \`7.0\`). An id supplied on create is at most ${Limits.maxSuppliedId}.

**Retries.** Writes take an \`Idempotency-Key\`: a repeat of the request within 24 hours gets the first answer again instead of writing twice.

**Request ids.** Every answer carries \`X-Request-Id\`: the one the request came with when it is plainly an id (1 to 128 of \`A-Za-z0-9._:-\`), a new UUID otherwise.

**The database unreachable**: 503 problem+json on every operation that needs it; retry later.`

export const servers: ReadonlyArray<OpenApi.OpenAPISpecServer> = [
  { url: "/", description: "This server: the API is served where this document is (relative to /openapi.json)." }
]

export const license: OpenApi.OpenAPISpecLicense = { name: "MIT", identifier: "MIT" }

type JsonObject = Record<string, unknown>

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** Every schema object in `value`, depth first, children before their parent. */
const visitSchemas = (value: unknown, visit: (schema: JsonObject) => void): void => {
  if (Array.isArray(value)) {
    for (const item of value) visitSchemas(item, visit)
  } else if (isObject(value)) {
    for (const child of Object.values(value)) visitSchemas(child, visit)
    visit(value)
  }
}

/** The component names a schema refers to, directly or through other components. */
const referencedComponents = (schema: unknown, components: JsonObject, into = new Set<string>()): Set<string> => {
  visitSchemas(schema, (node) => {
    const ref = node["$ref"]
    if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return
    const name = ref.slice("#/components/schemas/".length)
    if (into.has(name)) return
    into.add(name)
    referencedComponents(components[name], components, into)
  })
  return into
}

/** Keywords that mean the same in a schema as in a member of its `allOf`. */
const mergeable = new Set([
  "enum",
  "const",
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "description",
  "examples"
])

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const

const operationsOf = (spec: JsonObject): Array<JsonObject> =>
  Object.values(spec["paths"] as Record<string, JsonObject>).flatMap((item) =>
    methods.flatMap((method) => isObject(item[method]) ? [item[method]] : [])
  )

const mediaSchemas = (content: unknown): Array<unknown> =>
  isObject(content) ? Object.values(content).flatMap((media) => isObject(media) ? [media["schema"]] : []) : []

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry of this write safe (draft-ietf-httpapi-idempotency-key-header): the first request with a key is served and its answer kept for 24 hours; a repeat gets that answer again, with `Idempotent-Replayed: true`. Keys are the caller's own. The same key with another request: 422; a repeat while the first is served: 409 with `Retry-After`; a malformed key: 400.",
  // Core's IdempotencyKey, whose only check is this pattern.
  schema: { type: "string", pattern: idempotencyKeyPattern.source, examples: ["5f0c7e1a-3b7d-4a8e-9c51-2f4e8d6a1b90"] }
}

const idempotentReplayedResponseHeader = {
  description: "`true` on an answer replayed for a repeat of a request sent with the same `Idempotency-Key`.",
  required: false,
  schema: { type: "string", enum: ["true"] }
}

/**
 * The one place where the generated document is changed after HttpApi wrote it, for what its
 * generator cannot say from the contract's schemas and annotations:
 *
 * - Request bodies ignore members they do not know (Effect's decoding drops them), but the
 *   generator writes every object with `additionalProperties: false`, for requests and answers
 *   alike. The schemas request bodies use lose it; answers keep it (the server sends nothing else).
 * - An optional member that may be null (`Schema.optional(Schema.NullOr(...))`) is written as
 *   `anyOf: [X, null, null]`: the null of `NullOr` and the one JSON gives `undefined`. Repeated
 *   members of an `anyOf` are dropped.
 * - A plain-text body with a named schema is written `{"type": "string", "$ref": ...}`; the
 *   component already says it is a string.
 * - A check that adds an `enum` (the role on input, read in any letter case) is written as an
 *   `allOf` of one member beside the type; such a member is merged into its schema when it holds
 *   only value constraints and annotations that the schema does not hold already.
 * - `Idempotency-Key` is read by the `Idempotency` middleware before the endpoint decodes
 *   anything, so it is no header of the endpoints' schemas: it is added as a parameter of the
 *   operations that take it (`idempotentOperations`, found from the middleware), with the
 *   `Idempotent-Replayed` header of their successes.
 * - `limit` and `cursor` of the seed's lists are read by the `Paged` middleware, for the same
 *   reason: they are added as parameters of the operations that take it (`pagedOperations`), with
 *   the `Link` header of their successes.
 */
export const completeDocument =
  (idempotentOperations: ReadonlySet<string>, pagedOperations: ReadonlySet<string> = new Set()) =>
  (spec: Record<string, unknown>): Record<string, unknown> => {
    const document: JsonObject = JSON.parse(JSON.stringify(spec))
    const components = ((document["components"] as JsonObject)["schemas"] ?? {}) as JsonObject
    const operations = operationsOf(document)

    // Request bodies accept members they do not know.
    const inRequests = new Set<string>()
    const inResponses = new Set<string>()
    for (const operation of operations) {
      const body = operation["requestBody"]
      for (const schema of isObject(body) ? mediaSchemas(body["content"]) : []) {
        referencedComponents(schema, components, inRequests)
      }
      for (const response of Object.values((operation["responses"] ?? {}) as JsonObject)) {
        for (const schema of isObject(response) ? mediaSchemas(response["content"]) : []) {
          referencedComponents(schema, components, inResponses)
        }
      }
    }
    for (const name of inRequests) {
      if (inResponses.has(name)) continue
      visitSchemas(components[name], (node) => {
        if (node["additionalProperties"] === false) delete node["additionalProperties"]
      })
    }

    // Repeated members of an `anyOf`; a `type` beside a `$ref`; an `allOf` of plain constraints.
    visitSchemas(document, (node) => {
      const allOf = node["allOf"]
      const keys = Array.isArray(allOf)
        ? allOf.flatMap((member) => isObject(member) ? Object.keys(member) : ["$not-an-object"])
        : []
      if (
        keys.length > 0 && new Set(keys).size === keys.length &&
        keys.every((key) => mergeable.has(key) && !(key in node))
      ) {
        delete node["allOf"]
        Object.assign(node, ...(allOf as Array<JsonObject>))
      }
      const anyOf = node["anyOf"]
      if (Array.isArray(anyOf)) {
        const distinct = anyOf.filter((member, index) => anyOf.findIndex((other) => same(other, member)) === index)
        node["anyOf"] = distinct
      }
      if (typeof node["$ref"] === "string" && node["type"] === "string") delete node["type"]
    })

    // Idempotency-Key on the writes that take it.
    for (const operation of operations) {
      if (!idempotentOperations.has(operation["operationId"] as string)) continue
      operation["parameters"] = [...(operation["parameters"] as Array<unknown>), idempotencyKeyParameter]
      for (const [status, response] of Object.entries(operation["responses"] as JsonObject)) {
        if (!status.startsWith("2") || !isObject(response)) continue
        response["headers"] = {
          ...(response["headers"] as JsonObject | undefined),
          [idempotentReplayedHeader]: idempotentReplayedResponseHeader
        }
      }
    }
    // limit and cursor on the seed's lists.
    for (const operation of operations) {
      if (!pagedOperations.has(operation["operationId"] as string)) continue
      operation["parameters"] = [...((operation["parameters"] ?? []) as Array<unknown>), ...listPagingParameters]
      const ok = (operation["responses"] as JsonObject)["200"]
      if (isObject(ok)) ok["headers"] = { ...(ok["headers"] as JsonObject | undefined), link: listLinkHeader }
    }
    return document
  }
