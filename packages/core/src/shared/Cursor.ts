import { Effect, Option, Schema } from "effect"
import type { CursorSeal } from "./CursorSeal.ts"
import { InvalidValue } from "./Errors.ts"

/** The longest cursor taken: far above any the API gives, so that a caller cannot make the server hash megabytes. */
export const maxCursorLength = 512

/**
 * A cursor as the edge checks it: base64url text of a bounded length. Whether the API gave it is
 * for `openCursor` to say, with the key the edge does not have.
 */
export const CursorText = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]+$/u, { expected: "a cursor as a page's nextCursor gave it" }),
  Schema.isMaxLength(maxCursorLength)
)

/** Refused: a cursor the API did not give, or one that was edited. 400 naming `cursor`. */
const notGiven = new InvalidValue({ field: "cursor", reason: "not a cursor the API gave (a page's nextCursor)" })

/** The position of a sealed cursor, read by `read` from its text; fails naming `cursor` otherwise. */
export const openCursor = <P>(
  seal: CursorSeal["Service"],
  cursor: string,
  read: (position: string) => P | undefined
): Effect.Effect<P, InvalidValue> => {
  const text = seal.open(cursor)
  const position = Option.isSome(text) ? read(text.value) : undefined
  return position === undefined ? Effect.fail(notGiven) : Effect.succeed(position)
}

/** `JSON.parse` that answers undefined for text that is not JSON. */
export const parsedJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
