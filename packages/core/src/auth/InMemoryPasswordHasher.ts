import { Effect, Layer, Redacted } from "effect"
import { PasswordHasher } from "./PasswordHasher.ts"

const prefix = "in-memory-hash:"

/**
 * A "hash" that is the password behind a marker: `verify` agrees exactly when the password is the
 * one hashed, at no cost. No secrecy at all: for tests and examples, where the real hasher's
 * deliberate slowness would only slow them down.
 */
export const InMemoryPasswordHasher = Layer.succeed(
  PasswordHasher,
  PasswordHasher.of({
    hash: (password) => Effect.succeed(Redacted.make(`${prefix}${Redacted.value(password)}`)),
    verify: (password, hash) => Effect.succeed(Redacted.value(hash) === `${prefix}${Redacted.value(password)}`)
  })
)
