import { type TokenClaims, TokenSigner, UserId } from "@club/core"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { createHmac } from "node:crypto"
import * as JwtTokenSigner from "../src/JwtTokenSigner.ts"

const secret = Buffer.from("a test secret of at least thirty-two bytes")
const signer = JwtTokenSigner.make(secret)

// TestClock starts at the epoch: tokens issued "now" have iat 0.
const claims: TokenClaims = { userId: UserId.make(42), role: "COACH", issuedAt: 0, expiresAt: 3600 }

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const hs256 = (input: string, key: Uint8Array = secret) => createHmac("sha256", key).update(input).digest("base64url")
const forge = (header: unknown, payload: unknown, key: Uint8Array = secret) => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${hs256(input, key)}`
}
const payload = { sub: "42", role: "COACH", iat: 0, exp: 3600 }

const reasonOf = (token: string) =>
  signer.verify(token).pipe(
    Effect.flip,
    Effect.map((error) => error.reason)
  )

describe("JwtTokenSigner", () => {
  it.effect("round-trips the claims", () =>
    Effect.gen(function*() {
      const token = yield* signer.sign(claims)
      assert.deepStrictEqual(yield* signer.verify(token), claims)
    }))

  it.effect("issues a standard HS256 JWT: header alg/typ, claims sub, role, iat, exp", () =>
    Effect.gen(function*() {
      const [header, body, signature] = (yield* signer.sign(claims)).split(".") as [string, string, string]
      assert.deepStrictEqual(JSON.parse(Buffer.from(header, "base64url").toString()), { alg: "HS256", typ: "JWT" })
      assert.deepStrictEqual(JSON.parse(Buffer.from(body, "base64url").toString()), payload)
      assert.strictEqual(signature, hs256(`${header}.${body}`))
    }))

  it.effect("accepts a token it did not issue itself when signed with the same secret", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* signer.verify(forge({ alg: "HS256", typ: "JWT" }, payload)), claims)
    }))

  it.effect("refuses a tampered signature or payload as invalid", () =>
    Effect.gen(function*() {
      const token = yield* signer.sign(claims)
      const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A")
      assert.strictEqual(yield* reasonOf(flipped), "invalid")
      const [header, , signature] = token.split(".")
      const promoted = `${header}.${b64({ ...payload, role: "ADMIN" })}.${signature}`
      assert.strictEqual(yield* reasonOf(promoted), "invalid")
    }))

  it.effect("refuses alg none, other algorithms and extra header fields", () =>
    Effect.gen(function*() {
      const body = b64(payload)
      assert.strictEqual(yield* reasonOf(`${b64({ alg: "none", typ: "JWT" })}.${body}.`), "invalid")
      assert.strictEqual(yield* reasonOf(`${b64({ alg: "none" })}.${body}.`), "invalid")
      assert.strictEqual(yield* reasonOf(forge({ alg: "none", typ: "JWT" }, payload)), "invalid")
      assert.strictEqual(yield* reasonOf(forge({ alg: "HS512", typ: "JWT" }, payload)), "invalid")
      assert.strictEqual(yield* reasonOf(forge({ alg: "HS256" }, payload)), "invalid")
      assert.strictEqual(yield* reasonOf(forge({ alg: "HS256", typ: "JWT", kid: "x" }, payload)), "invalid")
    }))

  it.effect("refuses a token signed with another secret", () =>
    Effect.gen(function*() {
      const other = JwtTokenSigner.make(Buffer.from("another secret of at least thirty-two bytes"))
      assert.strictEqual(yield* reasonOf(yield* other.sign(claims)), "invalid")
    }))

  it.effect("refuses an expired token as expired, from its exp on", () =>
    Effect.gen(function*() {
      const token = yield* signer.sign(claims)
      yield* TestClock.adjust("3599 seconds")
      assert.deepStrictEqual(yield* signer.verify(token), claims)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* reasonOf(token), "expired")
    }))

  it.effect("checks the signature before the expiry: a forged expired token is invalid", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("2 hours")
      assert.strictEqual(yield* reasonOf(forge({ alg: "HS256", typ: "JWT" }, payload, Buffer.from("guess"))), "invalid")
    }))

  it("refuses a secret shorter than 32 bytes, which could be guessed", () => {
    assert.throws(() => JwtTokenSigner.make(new Uint8Array(31)), RangeError)
    assert.doesNotThrow(() => JwtTokenSigner.make(new Uint8Array(JwtTokenSigner.minSecretBytes)))
  })

  it.effect("is provided as a layer for core's TokenSigner port", () =>
    Effect.gen(function*() {
      const token = yield* TokenSigner.use((tokens) => tokens.sign(claims))
      assert.deepStrictEqual(yield* signer.verify(token), claims)
    }).pipe(Effect.provide(JwtTokenSigner.layer(secret))))

  it.effect("refuses malformed tokens as invalid", () =>
    Effect.gen(function*() {
      const header = { alg: "HS256", typ: "JWT" }
      const malformed = [
        "",
        "abc",
        "a.b",
        "a.b.c.d",
        "a.b.c",
        `${b64(header)}.${b64(payload)}.${hs256("x")}=`,
        forge(header, "not an object"),
        forge(header, { ...payload, sub: "abc" }),
        forge(header, { ...payload, sub: "0" }),
        forge(header, { ...payload, sub: 42 }),
        forge(header, { ...payload, role: "OWNER" }),
        forge(header, { ...payload, exp: "3600" }),
        forge(header, { sub: "42", role: "COACH", iat: 0 })
      ]
      for (const token of malformed) {
        assert.strictEqual(yield* reasonOf(token), "invalid", token)
      }
      const notJson = `${b64(header)}.${Buffer.from("{").toString("base64url")}`
      assert.strictEqual(yield* reasonOf(`${notJson}.${hs256(notJson)}`), "invalid")
    }))
})
