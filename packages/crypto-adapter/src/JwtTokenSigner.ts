import { Role, type TokenClaims, TokenSigner, Unauthenticated, UserId } from "@club/core"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto"

// Only this exact header is ever issued or accepted: no `alg: none`, no algorithm confusion.
const header = { alg: "HS256", typ: "JWT" } as const
const encodedHeader = Buffer.from(JSON.stringify(header)).toString("base64url")

const Payload = Schema.Struct({
  sub: Schema.String.check(Schema.isPattern(/^[1-9][0-9]{0,15}$/u)),
  role: Role,
  iat: Schema.Int,
  exp: Schema.Int
})
const decodePayload = Schema.decodeUnknownOption(Payload)
const decodeUserId = Schema.decodeUnknownOption(UserId)

const base64url = /^[A-Za-z0-9_-]+$/u

const invalid = new Unauthenticated({ reason: "invalid" })
const expired = new Unauthenticated({ reason: "expired" })

const parseJson = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8"))
  } catch {
    return undefined
  }
}

const hasExactHeader = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  Object.keys(value).length === 2 &&
  (value as Record<string, unknown>)["alg"] === header.alg &&
  (value as Record<string, unknown>)["typ"] === header.typ

/** How many verified tokens are remembered; past it the memory starts over. */
const maxRemembered = 10_000

/** The shortest secret `make` takes: 256 bits, the size of the HMAC-SHA-256 output (RFC 7518, section 3.2). */
export const minSecretBytes = 32

/**
 * Signs and verifies HS256 tokens with `secret`, which should be random bytes from the
 * configuration, the same on every instance that must accept the others' tokens. Throws a
 * `RangeError` for a secret shorter than `minSecretBytes`: such a key can be guessed.
 */
export const make = (secret: Uint8Array): TokenSigner["Service"] => {
  if (secret.length < minSecretBytes) {
    throw new RangeError(`An HS256 secret must be at least ${minSecretBytes} bytes, got ${secret.length}`)
  }
  // Imported once: every request verifies a token, and importing raw key bytes each time showed on the profile.
  const key = createSecretKey(secret)
  const signature = (signingInput: string) => createHmac("sha256", key).update(signingInput).digest("base64url")

  // Comparing the base64url text, not the decoded bytes, also refuses non-canonical encodings.
  const signatureMatches = (signingInput: string, given: string) => {
    const expected = Buffer.from(signature(signingInput))
    const actual = Buffer.from(given)
    return expected.length === actual.length && timingSafeEqual(expected, actual)
  }

  /** The claims of a well-formed token signed with our key, expiry aside; undefined otherwise. */
  const check = (token: string): TokenClaims | undefined => {
    const parts = token.split(".")
    if (parts.length !== 3 || !parts.every((part) => base64url.test(part))) return undefined
    const [encodedTokenHeader, encodedPayload, givenSignature] = parts as [string, string, string]
    if (!hasExactHeader(parseJson(encodedTokenHeader))) return undefined
    if (!signatureMatches(`${encodedTokenHeader}.${encodedPayload}`, givenSignature)) return undefined
    const payload = decodePayload(parseJson(encodedPayload))
    if (Option.isNone(payload)) return undefined
    const userId = decodeUserId(Number(payload.value.sub))
    if (Option.isNone(userId)) return undefined
    return { userId: userId.value, role: payload.value.role, issuedAt: payload.value.iat, expiresAt: payload.value.exp }
  }

  // The same token comes with every request of a session; what its signature proves does not change,
  // so it is checked once. Only expiry depends on the time, and it is compared on every call.
  const verified = new Map<string, TokenClaims>()
  const checkRemembered = (token: string): TokenClaims | undefined => {
    const known = verified.get(token)
    if (known !== undefined) return known
    const claims = check(token)
    if (claims === undefined) return undefined
    if (verified.size >= maxRemembered) verified.clear()
    verified.set(token, claims)
    return claims
  }

  // One generator function for every call, not an `Effect.gen` of a new one per call: V8 builds a
  // new generator function's prototype and object map on its first call, which cost more than the
  // rest of this check (docs/DECISIONS.md, "No generator function made per request").
  const verify = Effect.fnUntraced(function*(token: string) {
    const claims = checkRemembered(token)
    if (claims === undefined) return yield* invalid
    const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    if (nowSeconds >= claims.expiresAt) return yield* expired
    return claims
  })
  return TokenSigner.of({
    sign: (claims) =>
      Effect.sync(() => {
        const payload = { sub: String(claims.userId), role: claims.role, iat: claims.issuedAt, exp: claims.expiresAt }
        const signingInput = `${encodedHeader}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`
        return `${signingInput}.${signature(signingInput)}`
      }),
    verify
  })
}

/** `make(secret)` as a layer; a secret shorter than `minSecretBytes` is a defect when the layer is built. */
export const layer = (secret: Uint8Array): Layer.Layer<TokenSigner> => Layer.sync(TokenSigner, () => make(secret))
