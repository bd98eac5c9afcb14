import { ScalarType } from "@bufbuild/protobuf"

/** protobuf-es's field presence: 2 is implicit (proto3 scalars), what alwaysEmitImplicit speaks of. */
export const implicitPresence = 2

const int32Kinds = new Set([
  ScalarType.INT32,
  ScalarType.SINT32,
  ScalarType.SFIXED32,
  ScalarType.UINT32,
  ScalarType.FIXED32
])

/**
 * The scalar kinds the JSON writers write (jsonWriter.ts's closures and jsonWriterSource.ts's
 * generated code), as the JavaScript type of their value and their zero value; undefined for the
 * others (64-bit integers, floating point, bytes), which are left to protobuf-es.
 */
export const writtenScalar = (
  scalar: ScalarType
): { readonly type: "string" | "boolean" | "number"; readonly zero: string | boolean | number } | undefined =>
  scalar === ScalarType.STRING
    ? { type: "string", zero: "" }
    : scalar === ScalarType.BOOL
    ? { type: "boolean", zero: false }
    : int32Kinds.has(scalar)
    ? { type: "number", zero: 0 }
    : undefined
