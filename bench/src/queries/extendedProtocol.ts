/**
 * The two frontend messages of PostgreSQL's extended query protocol that say what a statement is
 * and what it runs with: `Parse` (its name, text and declared parameter types) and `Bind` (the
 * statement it binds and the bytes of each parameter, with their format codes). Bodies are the
 * message without its type byte and length.
 */

export interface ParseMessage {
  /** "" is the unnamed statement: planned with its values on every execution. */
  readonly name: string
  readonly text: string
  /** Declared type OIDs, one per parameter the client chose to declare; 0 is "let the server infer". */
  readonly parameterTypes: ReadonlyArray<number>
}

/** One parameter as the client bound it: its bytes, in text (format 0) or binary (format 1); null is SQL NULL. */
export type BoundParameter =
  | { readonly format: "text"; readonly bytes: Buffer }
  | { readonly format: "binary"; readonly bytes: Buffer }
  | null

export interface BindMessage {
  readonly statement: string
  readonly parameters: ReadonlyArray<BoundParameter>
}

const cString = (body: Buffer, start: number): [string, number] => {
  const end = body.indexOf(0, start)
  return [body.toString("utf8", start, end), end + 1]
}

export const readParse = (body: Buffer): ParseMessage => {
  const [name, afterName] = cString(body, 0)
  const [text, afterText] = cString(body, afterName)
  const count = afterText + 2 <= body.length ? body.readInt16BE(afterText) : 0
  const parameterTypes: Array<number> = []
  for (let index = 0; index < count; index++) parameterTypes.push(body.readUInt32BE(afterText + 2 + index * 4))
  return { name, text, parameterTypes }
}

/**
 * No format code means every parameter is text, one code applies to every parameter, otherwise
 * there is one code per parameter (the protocol's rule).
 */
const formatOf = (codes: ReadonlyArray<number>, index: number): "text" | "binary" => {
  const code = codes.length === 0 ? 0 : codes.length === 1 ? codes[0]! : codes[index]!
  return code === 1 ? "binary" : "text"
}

export const readBind = (body: Buffer): BindMessage => {
  const [, afterPortal] = cString(body, 0)
  const [statement, afterStatement] = cString(body, afterPortal)
  let offset = afterStatement
  const codeCount = body.readInt16BE(offset)
  offset += 2
  const codes: Array<number> = []
  for (let index = 0; index < codeCount; index++, offset += 2) codes.push(body.readInt16BE(offset))
  const parameterCount = body.readInt16BE(offset)
  offset += 2
  const parameters: Array<BoundParameter> = []
  for (let index = 0; index < parameterCount; index++) {
    const length = body.readInt32BE(offset)
    offset += 4
    if (length === -1) {
      parameters.push(null)
      continue
    }
    // A copy: the message's buffer is the proxy's, reused for the next chunk.
    parameters.push({ format: formatOf(codes, index), bytes: Buffer.from(body.subarray(offset, offset + length)) })
    offset += length
  }
  return { statement, parameters }
}
