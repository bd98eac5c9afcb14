import {
  create,
  type DescField,
  type DescMessage,
  type JsonWriteStringOptions,
  type MessageInitShape,
  ScalarType,
  toJsonString
} from "@bufbuild/protobuf"
import { jsonWriters, NotWritten, writtenFile } from "../gen/todoJson.ts"
import { implicitPresence, writtenScalar } from "./jsonScalarKinds.ts"

/** Writes one message (an init object or a message) as JSON text. */
export type JsonWriter = (message: object) => string

/** One value of a field as its JSON value; throws `Unsupported` for a value of another type than the field's. */
type ValueWriter = (value: unknown) => unknown

/** A value the writer was not derived for: the message is written by protobuf-es instead. */
class Unsupported extends Error {}

/** A value of a scalar kind as toJson gives it: a string, a boolean or a number, as it is. */
const scalarWriter = (type: "string" | "boolean" | "number"): ValueWriter => (value) => {
  if (typeof value !== type) throw new Unsupported()
  return value
}

/** A scalar kind's writer and its zero value, for the kinds the writer supports. */
const scalarOf = (scalar: ScalarType): { readonly write: ValueWriter; readonly zero: unknown } | undefined => {
  const kind = writtenScalar(scalar)
  return kind === undefined ? undefined : { write: scalarWriter(kind.type), zero: kind.zero }
}

/** Sets the field's JSON value on `json`, or nothing when toJson leaves it out. */
type FieldWriter = (message: Record<string, unknown>, json: Record<string, unknown>) => void

/**
 * The writer of one field, or undefined for a kind it does not write (enums, 64-bit integers,
 * floating point, bytes, maps, oneofs, explicit-presence scalars, well-known types).
 */
const fieldWriter = (
  field: DescField,
  options: Partial<Pick<JsonWriteStringOptions, "alwaysEmitImplicit" | "useProtoFieldName">>,
  messageWriter: (desc: DescMessage) => ValueWriter | undefined
): FieldWriter | undefined => {
  if (field.oneof !== undefined || field.name === "__proto__" || field.jsonName === "__proto__") return undefined
  const key = options.useProtoFieldName === true ? field.name : field.jsonName
  const local = field.localName
  const always = options.alwaysEmitImplicit === true
  switch (field.fieldKind) {
    case "scalar": {
      const scalar = scalarOf(field.scalar)
      if (scalar === undefined || field.presence !== implicitPresence) return undefined
      const { write, zero } = scalar
      // As `create`: a field the init leaves out (or null) is the zero value.
      return (message, json) => {
        const value = message[local] ?? zero
        if (always || value !== zero) json[key] = write(value)
      }
    }
    case "message": {
      const write = messageWriter(field.message)
      if (write === undefined) return undefined
      // A message field is written when set, whatever alwaysEmitImplicit says.
      return (message, json) => {
        const value = message[local]
        if (value != null) json[key] = write(value)
      }
    }
    case "list": {
      const write = field.listKind === "message"
        ? messageWriter(field.message)
        : field.listKind === "scalar"
        ? scalarOf(field.scalar)?.write
        : undefined
      if (write === undefined) return undefined
      return (message, json) => {
        const items = message[local] ?? []
        if (!Array.isArray(items)) throw new Unsupported()
        if (items.length === 0 && !always) return
        const values: Array<unknown> = []
        for (let i = 0; i < items.length; i++) values.push(write(items[i]))
        json[key] = values
      }
    }
    default:
      return undefined
  }
}

/**
 * A JSON writer derived once from a message's descriptor, of closures only (no generated code),
 * writing exactly what `toJsonString(desc, create(desc, message), options)` writes, for the
 * field kinds it supports: the JSON value toJson would build (the same keys, in field-number
 * order, the same values), built straight from the init object in one pass, then JSON.stringify;
 * `create`'s message and its type checks per field are not made. Any other message type (or options it does not follow: `prettySpaces`, a `registry` for
 * extensions) is written by protobuf-es, and so is a message holding a value of an unexpected
 * type, whose error is protobuf-es's own. test/jsonWriter.test.ts compares the two on random
 * messages.
 */
export const makeJsonWriter = (desc: DescMessage, options: Partial<JsonWriteStringOptions> = {}): JsonWriter => {
  const reflective: JsonWriter = (message) =>
    toJsonString(desc, create(desc, message as MessageInitShape<DescMessage>), options)
  const write = generatedJsonWriter(desc, options) ?? derivedJsonWriter(desc, options)
  if (write === undefined) return reflective
  return (message) => {
    try {
      return write(message)
    } catch (cause) {
      if (cause instanceof Unsupported || cause instanceof NotWritten) return reflective(message)
      throw cause
    }
  }
}

/**
 * The writer generated at build time for one of the contract's TodoService messages (src/gen/todoJson.ts,
 * decision 0331), or undefined for another message or options it does not follow (`prettySpaces`, a
 * `registry`, `useProtoFieldName`); it throws `NotWritten` for a value of another type.
 */
export const generatedJsonWriter = (
  desc: DescMessage,
  options: Partial<JsonWriteStringOptions> = {}
): JsonWriter | undefined => {
  if (desc.file !== writtenFile) return undefined
  if ((options.prettySpaces ?? 0) !== 0 || options.registry !== undefined || options.useProtoFieldName === true) {
    return undefined
  }
  const write = jsonWriters.get(desc.typeName)
  const always = options.alwaysEmitImplicit === true
  return write === undefined ? undefined : (message) => write(message, always)
}

/**
 * The writer derived from the descriptor alone, or undefined when the message type (or the
 * options) asks for what it does not write; it throws `Unsupported` for a value of another type.
 */
export const derivedJsonWriter = (
  desc: DescMessage,
  options: Partial<JsonWriteStringOptions> = {}
): JsonWriter | undefined => {
  if ((options.prettySpaces ?? 0) !== 0 || options.registry !== undefined) return undefined
  const derived = new Map<DescMessage, ValueWriter | undefined>()
  const messageWriter = (message: DescMessage): ValueWriter | undefined => {
    // A recursive type: its writer is being derived; protobuf-es writes it.
    if (derived.has(message)) return derived.get(message)
    derived.set(message, undefined)
    if (message.typeName.startsWith("google.protobuf.")) return undefined
    const fields: Array<FieldWriter> = []
    for (const field of [...message.fields].sort((a, b) => a.number - b.number)) {
      const write = fieldWriter(field, options, messageWriter)
      if (write === undefined) return undefined
      fields.push(write)
    }
    const write: ValueWriter = (value) => {
      if (typeof value !== "object" || value === null) throw new Unsupported()
      const record = value as Record<string, unknown>
      // A message of another type: protobuf-es decides what becomes of it.
      if (record["$typeName"] !== undefined && record["$typeName"] !== message.typeName) throw new Unsupported()
      const json: Record<string, unknown> = {}
      for (let i = 0; i < fields.length; i++) fields[i]!(record, json)
      return json
    }
    derived.set(message, write)
    return write
  }
  const write = messageWriter(desc)
  return write === undefined ? undefined : (message) => JSON.stringify(write(message))
}
