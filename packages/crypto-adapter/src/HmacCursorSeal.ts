import { CursorSeal } from "@club/core"
import { Layer, Option } from "effect"
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto"

/** The MAC's length in a cursor: 128 bits of HMAC-SHA-256, beyond any guessing over HTTP. */
const macBytes = 16

/** What the cursor key is derived for: never the bearer tokens' key itself. */
const purpose = "club-training-service cursor seal v1"

const base64url = /^[A-Za-z0-9_-]+$/u

/**
 * Cursors sealed with HMAC-SHA-256: base64url of the MAC's first `macBytes` bytes followed by the
 * position's text. The key is derived from `secret` (the bearer tokens' secret, shared by every
 * instance), so instances open each other's cursors and a client can neither forge nor edit one.
 * A new secret ends the old cursors (400, as for any cursor the API did not give).
 */
export const make = (secret: Uint8Array): CursorSeal["Service"] => {
  const key = createSecretKey(createHmac("sha256", secret).update(purpose).digest())
  const macOf = (position: Buffer) => createHmac("sha256", key).update(position).digest().subarray(0, macBytes)
  return CursorSeal.of({
    seal: (position) => {
      const text = Buffer.from(position, "utf8")
      return Buffer.concat([macOf(text), text]).toString("base64url")
    },
    open: (cursor) => {
      if (!base64url.test(cursor)) return Option.none()
      const bytes = Buffer.from(cursor, "base64url")
      // Re-encoding refuses a non-canonical spelling of the same bytes: one cursor per position.
      if (bytes.length < macBytes || bytes.toString("base64url") !== cursor) return Option.none()
      const text = bytes.subarray(macBytes)
      return timingSafeEqual(bytes.subarray(0, macBytes), macOf(text))
        ? Option.some(text.toString("utf8"))
        : Option.none()
    }
  })
}

/** `make(secret)` as a layer. */
export const layer = (secret: Uint8Array): Layer.Layer<CursorSeal> => Layer.sync(CursorSeal, () => make(secret))
