import { PasswordHasher } from "@club/core"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from "node:crypto"

/** Cost parameters; stored in every hash, so raising them later still verifies older hashes. */
export interface ScryptParameters {
  readonly N: number
  readonly r: number
  readonly p: number
}

// 32 MiB of memory per hash (128 · N · r bytes): slow and costly for a guesser, and still quick
// enough that a login waits on it unnoticed (its measured time: docs/DECISIONS.md, "Figures stay out of comments").
export const defaultParameters: ScryptParameters = { N: 2 ** 15, r: 8, p: 1 }

const saltBytes = 16
const keyBytes = 64
const prefix = "scrypt"
// Bounds on what a stored hash may ask for, so a corrupted or planted row cannot exhaust memory.
const maxN = 2 ** 20
const maxRp = 2 ** 10

const derive = (password: string, salt: Buffer, params: ScryptParameters) =>
  Effect.callback<Buffer>((resume) => {
    const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }
    // The callback form runs on libuv's thread pool, off the event loop.
    scrypt(password.normalize("NFC"), salt, keyBytes, options, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

/** `scrypt$N$r$p$<salt base64url>$<hash base64url>` */
const format = (params: ScryptParameters, salt: Buffer, key: Buffer) =>
  [prefix, params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$")

const isPowerOfTwo = (n: number) => Number.isSafeInteger(n) && n > 1 && (n & (n - 1)) === 0

const parse = (stored: string) => {
  const parts = stored.split("$")
  if (parts.length !== 6 || parts[0] !== prefix) return undefined
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^[1-9][0-9]{0,9}$/.test(part) ? Number(part) : NaN))
  if (N === undefined || r === undefined || p === undefined) return undefined
  if (!isPowerOfTwo(N) || N > maxN || !(r >= 1 && r <= maxRp) || !(p >= 1 && p <= maxRp)) return undefined
  const salt = Buffer.from(parts[4]!, "base64url")
  const key = Buffer.from(parts[5]!, "base64url")
  if (salt.length < saltBytes || key.length !== keyBytes) return undefined
  return { params: { N, r, p }, salt, key }
}

export const make = (params: ScryptParameters = defaultParameters): PasswordHasher["Service"] =>
  PasswordHasher.of({
    hash: (password) =>
      Effect.gen(function*() {
        const salt = randomBytes(saltBytes)
        const key = yield* derive(Redacted.value(password), salt, params)
        return Redacted.make(format(params, salt, key))
      }),
    verify: (password, hash) =>
      Effect.gen(function*() {
        const parsed = parse(Redacted.value(hash))
        if (parsed === undefined) return false
        const key = yield* derive(Redacted.value(password), parsed.salt, parsed.params)
        return timingSafeEqual(key, parsed.key)
      })
  })

export const layer = (params: ScryptParameters = defaultParameters): Layer.Layer<PasswordHasher> =>
  Layer.succeed(PasswordHasher, make(params))
