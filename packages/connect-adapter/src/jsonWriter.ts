import { type DescField, type DescMessage, type JsonWriteOptions, ScalarType } from "@bufbuild/protobuf"
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt"

/** What a writer answers for a value it does not write exactly as protobuf-es would: the caller then takes protobuf-es's way. */
export const notWritten: unique symbol = Symbol("notWritten")

/**
 * The JSON value of a message, built from what a handler returns (the message, or its init
 * shape): `JSON.stringify` of it is `toJsonString(desc, create(desc, init), options)`.
 */
export type JsonWriter = (init: unknown) => object | typeof notWritten

const implicit = FeatureSet_FieldPresence.IMPLICIT

/** The scalars written as they are held: their JSON is the JavaScript value, with no conversion. */
const typeOfScalar = new Map<ScalarType, { readonly jsType: string; readonly zero: string }>([
  [ScalarType.STRING, { jsType: "string", zero: `""` }],
  [ScalarType.BOOL, { jsType: "boolean", zero: "false" }],
  [ScalarType.INT32, { jsType: "number", zero: "0" }],
  [ScalarType.SINT32, { jsType: "number", zero: "0" }],
  [ScalarType.SFIXED32, { jsType: "number", zero: "0" }],
  [ScalarType.UINT32, { jsType: "number", zero: "0" }],
  [ScalarType.FIXED32, { jsType: "number", zero: "0" }]
])

const writable = (field: DescField): boolean => {
  if (field.name === "__proto__" || field.jsonName === "__proto__" || field.localName === "__proto__") return false
  switch (field.fieldKind) {
    case "scalar":
      return field.oneof === undefined && field.presence === implicit && typeOfScalar.has(field.scalar)
    case "message":
      return field.oneof === undefined
    case "list":
      return field.listKind === "message" || (field.listKind === "scalar" && typeOfScalar.has(field.scalar))
    default:
      return false
  }
}

/**
 * Writes, once per message type, a function that builds the message's JSON as protobuf-es's
 * `toJson(desc, create(desc, init), options)` does, without building the message first or
 * walking a list of field writers: on a listing, `create` and `toJson` were most of what an entry
 * cost the server over its bare `JSON.stringify` (docs/DECISIONS.md, "Connect answers written
 * straight to JSON").
 *
 * Only what protobuf-es writes as the JavaScript value itself is written here: strings, booleans
 * and 32-bit integers of implicit presence (proto3's), messages, and lists of these. A message
 * with any other field (64-bit integers, floats, bytes, enums, maps, oneofs, optional scalars),
 * a well-known type, or options that add extensions has no writer (undefined). A value of the
 * wrong type, or a message of another type, is `notWritten`: protobuf-es then builds its answer or
 * its error. Field names are written into the code as JSON string literals, never as code.
 */
export const makeJsonWriter = (desc: DescMessage, options: Partial<JsonWriteOptions>): JsonWriter | undefined => {
  if (options.registry !== undefined) return undefined
  const always = options.alwaysEmitImplicit === true
  const useProtoFieldName = options.useProtoFieldName === true
  const writers = new Map<DescMessage, JsonWriter>()

  const supported = (message: DescMessage, seen: Set<DescMessage>): boolean => {
    if (seen.has(message)) return true
    seen.add(message)
    if (message.typeName.startsWith("google.protobuf.")) return false
    return message.fields.every((field) =>
      writable(field) &&
      (field.message === undefined || supported(field.message, seen))
    )
  }

  const compile = (message: DescMessage): JsonWriter => {
    const known = writers.get(message)
    if (known !== undefined) return known
    // The writers of the messages its fields hold, filled in once this one is known (a message may hold itself).
    const nested: Array<JsonWriter> = []
    const nestedTypes: Array<DescMessage> = []
    const fields = [...message.fields].sort((a, b) => a.number - b.number)
    const statements = fields.map((field, i) => {
      const read = `let v${i} = m[${JSON.stringify(field.localName)}];`
      const key = JSON.stringify(useProtoFieldName ? field.name : field.jsonName)
      if (field.fieldKind === "scalar") {
        const { jsType, zero } = typeOfScalar.get(field.scalar)!
        return `${read}
    if (v${i} === undefined) v${i} = ${zero}; else if (typeof v${i} !== "${jsType}") return notWritten;
    ${always ? "" : `if (v${i} !== ${zero}) `}json[${key}] = v${i};`
      }
      if (field.fieldKind === "message") {
        nestedTypes.push(field.message)
        const writer = `nested[${nestedTypes.length - 1}]`
        return `${read}
    if (v${i} !== undefined) { v${i} = ${writer}(v${i}); if (v${i} === notWritten) return notWritten; json[${key}] = v${i}; }`
      }
      if (field.fieldKind !== "list") throw new Error(`${field} has no JSON writer`)
      // A list: of messages, or of scalars written as they are.
      let item: string
      if (field.listKind === "message") {
        nestedTypes.push(field.message)
        item = `const item = nested[${nestedTypes.length - 1}](v${i}[j]); if (item === notWritten) return notWritten;`
      } else if (field.listKind === "scalar") {
        const { jsType } = typeOfScalar.get(field.scalar)!
        item = `const item = v${i}[j]; if (typeof item !== "${jsType}") return notWritten;`
      } else {
        throw new Error(`${field} has no JSON writer`)
      }
      return `${read}
    if (v${i} === undefined) v${i} = []; else if (!Array.isArray(v${i})) return notWritten;
    if (${always ? "true" : `v${i}.length > 0`}) {
      const list = new Array(v${i}.length);
      for (let j = 0; j < list.length; j++) { ${item} list[j] = item; }
      json[${key}] = list;
    }`
    })
    const body = `"use strict"; return function write(m) {
    if (m === null || typeof m !== "object" || (m.$typeName !== undefined && m.$typeName !== typeName)) return notWritten;
    const json = {};
    ${statements.join("\n    ")}
    return json;
  }`
    // Written once per message type, from its descriptor's names only.
    const write = new Function("nested", "notWritten", "typeName", body)(
      nested,
      notWritten,
      message.typeName
    ) as JsonWriter
    writers.set(message, write)
    for (const type of nestedTypes) nested.push(compile(type))
    return write
  }

  return supported(desc, new Set()) ? compile(desc) : undefined
}
