import type { DescField, DescFile, DescMessage, ScalarType } from "@bufbuild/protobuf"
import { implicitPresence, writtenScalar } from "./jsonScalarKinds.ts"

/**
 * The source of a module of JSON writers for the messages of a `.proto` file, written at build time
 * (scripts/generateJsonWriters.ts, decision 0331) the way protoc-gen-es writes the messages
 * themselves: for each message whose fields are all of the kinds below, a function that builds the
 * JSON value `toJson` builds, as one object literal (so every answer of one message type has one
 * shape), and the module's `jsonWriters`, each writing that value as JSON text. A value of another
 * type than its field's throws `NotWritten`, and the caller writes that message by protobuf-es.
 * Supported: string, bool and 32-bit integer fields of implicit presence, message fields, and lists
 * of those; any other kind (enums, 64-bit integers, floating point, bytes, maps, oneofs, well-known
 * types) leaves its message, and the messages holding it, to the caller.
 */
export const jsonWriterSource = (file: DescFile, fileImport?: { readonly name: string; readonly from: string }) => {
  const messages = allMessages(file.messages)
  const names = new Map(messages.map((message, i) => [message, `message${i}`]))
  const written = writableMessages(messages)
  const functions = messages.filter((message) => written.has(message)).map((message) => messageFunction(message, names))
  const entries = messages.filter((message) => written.has(message)).map((message) =>
    `  [${JSON.stringify(message.typeName)}, (message, always) => JSON.stringify(${
      names.get(message)
    }(message, always))]`
  )
  return [
    `// Generated from ${file.proto.name}'s descriptors by jsonWriterSource (src/shared/jsonWriterSource.ts).`,
    "// Do not edit: every build writes it again.",
    ...(fileImport === undefined ? [] : [`import { ${fileImport.name} } from ${JSON.stringify(fileImport.from)}`]),
    "",
    "/** A value of another type than its field's: the message is written by protobuf-es instead. */",
    "export class NotWritten extends Error {}",
    "",
    ...(fileImport === undefined ? [] : [
      "/** The file these writers were generated from: they write its messages only. */",
      `export const writtenFile = ${fileImport.name}`,
      ""
    ]),
    ...functions,
    "/** Each written message's writer by type name: `always` is toJson's `alwaysEmitImplicit`. */",
    "export const jsonWriters: ReadonlyMap<string, (message: object, always: boolean) => string> = new Map([",
    entries.join(",\n"),
    "])",
    ""
  ].join("\n")
}

const allMessages = (messages: ReadonlyArray<DescMessage>): Array<DescMessage> =>
  messages.flatMap((message) => [message, ...allMessages(message.nestedMessages)])

/** A supported scalar kind's JavaScript type and zero value, as text. */
const scalarKind = (scalar: ScalarType) => {
  const kind = writtenScalar(scalar)
  return kind === undefined ? undefined : { type: kind.type, zero: JSON.stringify(kind.zero) }
}

/** A key an object literal would not hold as it is (`__proto__` sets the prototype). */
const unsafeKey = (key: string) => key === "__proto__"

/** The messages every field of which is written here, their message fields included. */
const writableMessages = (messages: ReadonlyArray<DescMessage>): ReadonlySet<DescMessage> => {
  const fieldWritable = (field: DescField, writable: ReadonlySet<DescMessage>) => {
    if (field.oneof !== undefined || unsafeKey(field.jsonName) || unsafeKey(field.localName)) return false
    switch (field.fieldKind) {
      case "scalar":
        return scalarKind(field.scalar) !== undefined && field.presence === implicitPresence
      case "message":
        return writable.has(field.message)
      case "list":
        return field.listKind === "message"
          ? writable.has(field.message)
          : field.listKind === "scalar" && scalarKind(field.scalar) !== undefined
      default:
        return false
    }
  }
  // Two fields of one JSON name would be one key of toJson's object, and an object literal's error.
  const distinctKeys = (message: DescMessage) =>
    new Set(message.fields.map((field) => field.jsonName)).size === message.fields.length
  // Optimistic for recursive types: every candidate, then drop those with a field not written, until none drops.
  const writable = new Set(
    messages.filter((message) => !message.typeName.startsWith("google.protobuf.") && distinctKeys(message))
  )
  for (let dropped = true; dropped;) {
    dropped = false
    for (const message of writable) {
      if (!message.fields.every((field) => fieldWritable(field, writable))) {
        writable.delete(message)
        dropped = true
      }
    }
  }
  return writable
}

/** One message's function: its fields read, checked and defaulted, then its JSON value as one object literal. */
const messageFunction = (message: DescMessage, names: ReadonlyMap<DescMessage, string>) => {
  const fields = [...message.fields].sort((a, b) => a.number - b.number)
  const reads = fields.map((field, i) => fieldRead(field, `f${i}`, names))
  const literal = fields.map((field, i) => `${JSON.stringify(field.jsonName)}: f${i}`).join(", ")
  return [
    `function ${names.get(message)}(value: unknown, ${
      fields.length === 0 ? "_always" : "always"
    }: boolean): Record<string, unknown> {`,
    `  if (typeof value !== "object" || value === null) throw new NotWritten()`,
    "  const record = value as Record<string, unknown>",
    `  if (record["$typeName"] !== undefined && record["$typeName"] !== ${
      JSON.stringify(message.typeName)
    }) throw new NotWritten()`,
    ...reads.flat().map((line) => `  ${line}`),
    `  return { ${literal} }`,
    "}",
    ""
  ].join("\n")
}

/** The lines that leave in `name` the field's JSON value, or undefined where toJson leaves it out. */
const fieldRead = (field: DescField, name: string, names: ReadonlyMap<DescMessage, string>): Array<string> => {
  const read = `record[${JSON.stringify(field.localName)}]`
  switch (field.fieldKind) {
    case "scalar": {
      // As `create`: a field the init leaves out (or null) is the zero value.
      const { type, zero } = scalarKind(field.scalar)!
      return [
        `const ${name}Value = ${read} ?? ${zero}`,
        `if (typeof ${name}Value !== "${type}") throw new NotWritten()`,
        `const ${name} = always || ${name}Value !== ${zero} ? ${name}Value : undefined`
      ]
    }
    case "message":
      // A message field is written when set, whatever alwaysEmitImplicit says.
      return [
        `const ${name}Value = ${read}`,
        `const ${name} = ${name}Value != null ? ${names.get(field.message)}(${name}Value, always) : undefined`
      ]
    case "list": {
      const item = field.listKind === "message"
        ? `${names.get(field.message)}(${name}Items[i], always)`
        : `${name}Items[i]`
      const check = field.listKind === "scalar"
        ? [`  if (typeof ${name}Items[i] !== "${scalarKind(field.scalar)!.type}") throw new NotWritten()`]
        : []
      return [
        `const ${name}Items = ${read} ?? []`,
        `if (!Array.isArray(${name}Items)) throw new NotWritten()`,
        `let ${name}: Array<unknown> | undefined`,
        `if (always || ${name}Items.length > 0) {`,
        `  ${name} = []`,
        `  for (let i = 0; i < ${name}Items.length; i++) {`,
        ...check.map((line) => `  ${line}`),
        `    ${name}.push(${item})`,
        "  }",
        "}"
      ]
    }
    default:
      throw new Error(`${field.toString()}: not a kind jsonWriterSource writes`)
  }
}
