import {
  create,
  type DescMessage,
  type DescMethodUnary,
  type JsonWriteStringOptions,
  type MessageInitShape
} from "@bufbuild/protobuf"
import { limitSerialization, type MethodSerializationLookup } from "@connectrpc/connect/protocol"
import { makeJsonWriter, notWritten } from "./jsonWriter.ts"

/** The bytes of a call's answer, binary or JSON, from what its route returned. */
export type AnswerWriter = (binary: boolean, output: object) => Uint8Array

/**
 * A method's answers as its serialization writes them (connect's, with its size limit). In JSON,
 * when the output message has a writer (`makeJsonWriter`), its JSON is built straight from the
 * route's output and measured against the same limit; otherwise, or for a value that writer does
 * not take, the message is created and serialized by protobuf-es, as in binary.
 */
export const makeAnswerWriter = (
  method: DescMethodUnary,
  serialization: MethodSerializationLookup<DescMessage, DescMessage>,
  options: {
    readonly jsonOptions?:
      | Partial<JsonWriteStringOptions> & { readonly textEncoder?: { encode(text: string): Uint8Array<ArrayBuffer> } }
      | undefined
    readonly readMaxBytes: number
    readonly writeMaxBytes: number
  }
): AnswerWriter => {
  const serialize = (binary: boolean, output: object) =>
    serialization.getO(binary).serialize(create(method.output, output as MessageInitShape<DescMessage>))
  const jsonOptions = options.jsonOptions ?? {}
  const writeJson = makeJsonWriter(method.output, jsonOptions)
  if (writeJson === undefined) return serialize
  const encoder = jsonOptions.textEncoder ?? new TextEncoder()
  const spaces = jsonOptions.prettySpaces ?? 0
  const json = limitSerialization({
    serialize: (value: object) => encoder.encode(JSON.stringify(value, null, spaces)),
    parse: () => {
      throw new Error("answers are only written")
    }
  }, options)
  return (binary, output) => {
    if (binary) return serialize(binary, output)
    const value = writeJson(output)
    return value === notWritten ? serialize(binary, output) : json.serialize(value)
  }
}
