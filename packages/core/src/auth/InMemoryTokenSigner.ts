import { Clock, Effect, Layer } from "effect"
import { Unauthenticated } from "../shared/Errors.ts"
import { type TokenClaims, TokenSigner } from "./TokenSigner.ts"

/**
 * Tokens as opaque handles to the claims they were issued for, kept in this layer's memory: a
 * token is valid only where it was signed, and `verify` refuses one it never issued and one whose
 * `expiresAt` has passed on the Effect clock, as the JWT signer does. Not a signature: for tests
 * and examples, which then need no secret.
 */
export const InMemoryTokenSigner = Layer.sync(TokenSigner, () => {
  const issued = new Map<string, TokenClaims>()
  return TokenSigner.of({
    sign: (claims) =>
      Effect.sync(() => {
        const token = `in-memory-token-${issued.size + 1}`
        issued.set(token, claims)
        return token
      }),
    verify: (token) =>
      Effect.gen(function*() {
        const claims = issued.get(token)
        if (claims === undefined) return yield* new Unauthenticated({ reason: "invalid" })
        const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        if (claims.expiresAt <= nowSeconds) return yield* new Unauthenticated({ reason: "expired" })
        return claims
      })
  })
})
