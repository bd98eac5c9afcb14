import type { BoundParameter } from "./extendedProtocol.ts"

/**
 * A bound parameter as the text PostgreSQL would read for it, so that the statement can be run
 * again with `EXECUTE name('…')`. A text-format parameter is its own text. A binary one is decoded
 * only for the types its statement declared in `Parse` and that this file knows (the driver binds
 * numbers, booleans and id arrays in binary, declaring their types); anything else is reported as
 * unsupported rather than guessed.
 */
export type ParameterText =
  | { readonly text: string | null }
  | { readonly unsupported: string }

const epoch2000Millis = Date.UTC(2000, 0, 1)

/** Microseconds since 2000-01-01, PostgreSQL's binary timestamp, as `YYYY-MM-DD HH:MM:SS.ffffff`. */
const timestampText = (micros: bigint): string => {
  const millis = micros / 1000n
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n
  const iso = new Date(epoch2000Millis + Number(millis)).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction.toString().padStart(6, "0")}`
}

type ScalarDecoder = (bytes: Buffer) => string

/** Binary decoders by type OID. */
const scalarTypes: ReadonlyMap<number, { readonly decode: ScalarDecoder }> = new Map([
  [16, { decode: (b: Buffer) => (b[0] === 1 ? "true" : "false") }],
  [20, { decode: (b: Buffer) => b.readBigInt64BE(0).toString() }],
  [21, { decode: (b: Buffer) => String(b.readInt16BE(0)) }],
  [23, { decode: (b: Buffer) => String(b.readInt32BE(0)) }],
  [25, { decode: (b: Buffer) => b.toString("utf8") }],
  [700, { decode: (b: Buffer) => String(b.readFloatBE(0)) }],
  [701, { decode: (b: Buffer) => String(b.readDoubleBE(0)) }],
  [1043, { decode: (b: Buffer) => b.toString("utf8") }],
  [1082, {
    decode: (b: Buffer) => new Date(epoch2000Millis + b.readInt32BE(0) * 86_400_000).toISOString().slice(0, 10)
  }],
  [1114, { decode: (b: Buffer) => timestampText(b.readBigInt64BE(0)) }],
  [1184, { decode: (b: Buffer) => `${timestampText(b.readBigInt64BE(0))}+00` }]
])

/** Array type OID → element type OID, for the arrays of the scalar types above. */
const arrayTypes: ReadonlyMap<number, { readonly element: number }> = new Map([
  [1000, { element: 16 }],
  [1005, { element: 21 }],
  [1007, { element: 23 }],
  [1009, { element: 25 }],
  [1015, { element: 1043 }],
  [1016, { element: 20 }],
  [1021, { element: 700 }],
  [1022, { element: 701 }]
])

const arrayElementText = (text: string) => `"${text.replaceAll("\\", "\\\\").replaceAll("\"", "\\\"")}"`

/** A one-dimensional binary array (ndim, has-null flag, element OID, then size and lower bound, then the elements). */
const decodeArray = (bytes: Buffer, element: { readonly decode: ScalarDecoder }): string => {
  const dimensions = bytes.readInt32BE(0)
  if (dimensions === 0) return "{}"
  if (dimensions !== 1) throw new Error(`${dimensions}-dimensional array`)
  const size = bytes.readInt32BE(12)
  let offset = 20
  const elements: Array<string> = []
  for (let index = 0; index < size; index++) {
    const length = bytes.readInt32BE(offset)
    offset += 4
    if (length === -1) {
      elements.push("NULL")
      continue
    }
    elements.push(arrayElementText(element.decode(bytes.subarray(offset, offset + length))))
    offset += length
  }
  return `{${elements.join(",")}}`
}

export const parameterText = (parameter: BoundParameter, oid: number): ParameterText => {
  if (parameter === null) return { text: null }
  if (parameter.format === "text") return { text: parameter.bytes.toString("utf8") }
  const scalar = scalarTypes.get(oid)
  if (scalar !== undefined) return { text: scalar.decode(parameter.bytes) }
  const array = arrayTypes.get(oid)
  const element = array === undefined ? undefined : scalarTypes.get(array.element)
  if (element !== undefined) {
    try {
      return { text: decodeArray(parameter.bytes, element) }
    } catch (error) {
      return { unsupported: `binary parameter of type OID ${oid}: ${(error as Error).message}` }
    }
  }
  return { unsupported: `binary parameter of type OID ${oid}` }
}

/** A string literal for SQL: PostgreSQL casts an untyped literal to the parameter's type. */
export const sqlLiteral = (text: string | null): string => (text === null ? "NULL" : `'${text.replaceAll("'", "''")}'`)
