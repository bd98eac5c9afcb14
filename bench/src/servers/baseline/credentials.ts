import { createHmac, scrypt, timingSafeEqual } from "node:crypto"

/** The project's stored scrypt format, `scrypt$N$r$p$<salt>$<key>`, verified the same way (libuv pool). */
export const verifyPassword = (password: string, stored: string): Promise<boolean> => {
  const [, n, r, p, salt, key] = stored.split("$")
  const N = Number(n)
  const expected = Buffer.from(key!, "base64url")
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFC"),
      Buffer.from(salt!, "base64url"),
      expected.length,
      { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) + 1024 * 1024 },
      (error, derived) => (error === null ? resolve(timingSafeEqual(derived, expected)) : reject(error))
    )
  )
}

const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")

/** An HS256 JWT with the project's claims. */
export const signToken = (secret: string, claims: Record<string, unknown>): string => {
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`
}

/**
 * A page's `nextCursor` as the project seals it (packages/crypto-adapter/src/HmacCursorSeal.ts): the
 * first 16 bytes of an HMAC-SHA-256 of the position, under a key derived from the token secret for
 * cursors, then the position, in base64url. The same secret gives the same cursor, so both servers'
 * pages are equal field for field, `nextCursor` included.
 */
export const cursorSeal = (secret: string) => {
  const key = createHmac("sha256", Buffer.from(secret, "utf8")).update("club-training-service cursor seal v1").digest()
  return (position: string): string => {
    const text = Buffer.from(position, "utf8")
    return Buffer.concat([createHmac("sha256", key).update(text).digest().subarray(0, 16), text]).toString("base64url")
  }
}
