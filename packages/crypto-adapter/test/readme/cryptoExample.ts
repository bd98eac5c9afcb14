import { PasswordHasher, TokenSigner, UserId } from "@club/core"
import { JwtTokenSigner, ScryptPasswordHasher } from "@club/crypto-adapter"
import { Effect, Layer, Redacted } from "effect"

// In an application the secret comes from its configuration: at least 32 random bytes.
const secret = new TextEncoder().encode("an example secret of at least 32 bytes")
const Crypto = Layer.mergeAll(ScryptPasswordHasher.layer(), JwtTokenSigner.layer(secret))

const program = Effect.gen(function*() {
  const hasher = yield* PasswordHasher
  const hash = yield* hasher.hash(Redacted.make("correct horse battery staple"))
  const verified = yield* hasher.verify(Redacted.make("correct horse battery staple"), hash)

  const signer = yield* TokenSigner
  const now = Math.floor(Date.now() / 1000)
  const token = yield* signer.sign({ userId: UserId.make(7), role: "COACH", issuedAt: now, expiresAt: now + 3600 })
  const claims = yield* signer.verify(token)
  return `password verified: ${verified}; token of user ${claims.userId}, ${claims.role}`
})

console.log(await Effect.runPromise(program.pipe(Effect.provide(Crypto))))
