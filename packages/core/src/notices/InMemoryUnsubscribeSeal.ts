import { Layer, Option } from "effect"
import { type UnsubscribeTarget, UnsubscribeSeal } from "./UnsubscribeSeal.ts"

/**
 * Unsubscribe tokens as opaque handles to the targets they were signed for, kept in this layer's
 * memory: a token opens only where it was signed, any other text (an altered token included) opens
 * to nothing, as with the keyed seal. Not a MAC: for tests and examples, which then need no secret.
 */
export const InMemoryUnsubscribeSeal = Layer.sync(UnsubscribeSeal, () => {
  const signed = new Map<string, UnsubscribeTarget>()
  const handles = new Map<string, string>()
  return UnsubscribeSeal.of({
    sign: (target) => {
      const key = `${target.userId}:${target.kind}`
      const known = handles.get(key)
      if (known !== undefined) return known
      const token = `in-memory-unsubscribe-${signed.size + 1}`
      signed.set(token, target)
      handles.set(key, token)
      return token
    },
    open: (token) => Option.fromUndefinedOr(signed.get(token))
  })
})
