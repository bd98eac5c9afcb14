import { type DescField, type DescMessage, type MessageInitShape, ScalarType } from "@bufbuild/protobuf"
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt"

/** Writes one field of a message init into the JSON object being built. */
type FieldWriter = (init: Record<string, unknown>, json: Record<string, unknown>) => void

const numberScalars: ReadonlySet<ScalarType> = new Set([
  ScalarType.INT32,
  ScalarType.UINT32,
  ScalarType.SINT32,
  ScalarType.FIXED32,
  ScalarType.SFIXED32
])

const defaultOf = (scalar: ScalarType): unknown =>
  scalar === ScalarType.STRING ? "" : scalar === ScalarType.BOOL ? false : 0

const compileField = (field: DescField): FieldWriter | undefined => {
  if (field.oneof !== undefined) return undefined
  if (field.fieldKind === "scalar") {
    const scalar = field.scalar
    if (field.presence !== FeatureSet_FieldPresence.IMPLICIT) return undefined
    if (scalar !== ScalarType.STRING && scalar !== ScalarType.BOOL && !numberScalars.has(scalar)) return undefined
    const key = field.localName
    const name = field.jsonName
    const fallback = defaultOf(scalar)
    return (init, json) => {
      json[name] = init[key] ?? fallback
    }
  }
  if (field.fieldKind === "list" && field.listKind === "message") {
    const element = compileObject(field.message)
    if (element === undefined) return undefined
    const key = field.localName
    const name = field.jsonName
    return (init, json) => {
      const list = (init[key] ?? []) as ReadonlyArray<Record<string, unknown>>
      json[name] = list.map(element)
    }
  }
  return undefined
}

const compileObject = (
  schema: DescMessage
): ((init: Record<string, unknown>) => Record<string, unknown>) | undefined => {
  // protobuf-es writes fields in field-number order.
  const writers: Array<FieldWriter> = []
  for (const field of schema.fields.concat().sort((a, b) => a.number - b.number)) {
    const writer = compileField(field)
    if (writer === undefined) return undefined
    writers.push(writer)
  }
  return (init) => {
    const json: Record<string, unknown> = {}
    for (const write of writers) write(init, json)
    return json
  }
}

/**
 * The proto3 JSON of a message init, with every field emitted (`alwaysEmitImplicit`), written
 * without creating the message first and without protobuf-es's reflection: for TodoService's
 * answers those two were the larger part of connect-node's time per call (docs/DECISIONS.md,
 * "Figures stay out of comments"). Only messages made of implicit-presence
 * strings, bools, 32-bit integers and lists of such messages are compiled; for any other shape
 * this answers undefined and the caller serialises with protobuf-es. The output is
 * protobuf-es's `toJsonString(schema, create(schema, init), { alwaysEmitImplicit: true })`,
 * character for character (test/jsonWriter.test.ts).
 */
export const compileJsonWriter = <Desc extends DescMessage>(
  schema: Desc
): ((init: MessageInitShape<Desc>) => string) | undefined => {
  const toObject = compileObject(schema)
  return toObject === undefined ? undefined : (init) => JSON.stringify(toObject(init as Record<string, unknown>))
}
