import { Layer, Option } from "effect"
import { CursorSeal } from "./CursorSeal.ts"

/**
 * Cursors as opaque handles to the positions they were sealed for, kept in this layer's memory: a
 * cursor opens only where it was sealed, and any other text (an edited cursor included) opens to
 * nothing, as with the keyed seal. Not a MAC: for tests and examples, which then need no secret.
 */
export const InMemoryCursorSeal = Layer.sync(CursorSeal, () => {
  const sealed = new Map<string, string>()
  const handles = new Map<string, string>()
  return CursorSeal.of({
    seal: (position) => {
      const known = handles.get(position)
      if (known !== undefined) return known
      const cursor = `in-memory-cursor-${sealed.size + 1}`
      sealed.set(cursor, position)
      handles.set(position, cursor)
      return cursor
    },
    open: (cursor) => Option.fromUndefinedOr(sealed.get(cursor))
  })
})
