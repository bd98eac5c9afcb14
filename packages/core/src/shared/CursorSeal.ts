import { Context, type Option } from "effect"

/**
 * Seals the cursors the API hands out, so that a client can neither forge one nor edit one it was
 * given: `seal` turns a position (its text) into an opaque cursor, `open` gives the position back
 * only for a cursor sealed with the same key. On the server the key comes from the token secret,
 * so every instance sharing that secret opens the others' cursors.
 */
export class CursorSeal extends Context.Service<CursorSeal, {
  /** An opaque base64url cursor for `position`. */
  seal(position: string): string
  /** The position `cursor` was sealed from; none for anything else, an edited cursor included. */
  open(cursor: string): Option.Option<string>
}>()("@club/core/CursorSeal") {}
