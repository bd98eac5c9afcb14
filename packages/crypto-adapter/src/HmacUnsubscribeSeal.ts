import { maxUnsubscribeTokenLength, type NoticeKind, noticeKinds, UnsubscribeSeal, type UserId } from "@club/core"
import { Layer, Option } from "effect"
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto"

/** The MAC's length in a token: 128 bits of HMAC-SHA-256, beyond any guessing over HTTP. */
const macBytes = 16

/** What the unsubscribe key is derived for: never the bearer tokens' key, nor the cursors'. */
const purpose = "club-training-service notice unsubscribe v1"

const base64url = /^[A-Za-z0-9_-]+$/u
const payload = /^(\d{1,16})\.([A-Za-z]{1,32})$/u

const isKind = (kind: string): kind is NoticeKind => (noticeKinds as ReadonlyArray<string>).includes(kind)

/**
 * Unsubscribe tokens signed with HMAC-SHA-256: base64url of the MAC's first `macBytes` bytes
 * followed by `<user id>.<kind>`. The key is derived from `secret` (the bearer tokens' secret,
 * shared by every instance) for this purpose alone. No expiry: a notice's link keeps working in an
 * old mail; a new secret ends every link (decision 0292).
 */
export const make = (secret: Uint8Array): UnsubscribeSeal["Service"] => {
  const key = createSecretKey(createHmac("sha256", secret).update(purpose).digest())
  const macOf = (text: Buffer) => createHmac("sha256", key).update(text).digest().subarray(0, macBytes)
  return UnsubscribeSeal.of({
    sign: ({ kind, userId }) => {
      const text = Buffer.from(`${userId}.${kind}`, "utf8")
      return Buffer.concat([macOf(text), text]).toString("base64url")
    },
    open: (token) => {
      if (token.length > maxUnsubscribeTokenLength || !base64url.test(token)) return Option.none()
      const bytes = Buffer.from(token, "base64url")
      // Re-encoding refuses a non-canonical spelling of the same bytes: one token per target.
      if (bytes.length <= macBytes || bytes.toString("base64url") !== token) return Option.none()
      const text = bytes.subarray(macBytes)
      if (!timingSafeEqual(bytes.subarray(0, macBytes), macOf(text))) return Option.none()
      const parts = payload.exec(text.toString("utf8"))
      if (parts === null || !isKind(parts[2]!)) return Option.none()
      const userId = Number(parts[1])
      return Number.isSafeInteger(userId) && userId > 0
        ? Option.some({ userId: userId as UserId, kind: parts[2] })
        : Option.none()
    }
  })
}

/** `make(secret)` as a layer. */
export const layer = (secret: Uint8Array): Layer.Layer<UnsubscribeSeal> =>
  Layer.sync(UnsubscribeSeal, () => make(secret))
