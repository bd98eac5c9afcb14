import { Context, type Effect, type Redacted } from "effect"

/** A salted slow hash (scrypt or argon2id); the hash string carries its own parameters and salt. */
export class PasswordHasher extends Context.Service<PasswordHasher, {
  hash(password: Redacted.Redacted<string>): Effect.Effect<Redacted.Redacted<string>>
  verify(password: Redacted.Redacted<string>, hash: Redacted.Redacted<string>): Effect.Effect<boolean>
}>()("@club/core/PasswordHasher") {}
