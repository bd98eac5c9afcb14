import { noticeKinds, type UserId } from "@club/core"
import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import * as fc from "fast-check"
import { Option } from "effect"
import * as HmacCursorSeal from "../src/HmacCursorSeal.ts"
import * as HmacUnsubscribeSeal from "../src/HmacUnsubscribeSeal.ts"

const secret = Buffer.from("a test secret of at least thirty-two bytes")
const seal = HmacUnsubscribeSeal.make(secret)
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const target = fc.record({
  userId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map((id) => id as UserId),
  kind: fc.constantFrom(...noticeKinds)
})

describe("HmacUnsubscribeSeal", () => {
  it("opens what it signed, as base64url within the bound", () => {
    fc.assert(fc.property(target, (signed) => {
      const token = seal.sign(signed)
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/u)
      expect(token.length).toBeLessThanOrEqual(128)
      expect(seal.open(token)).toEqual(Option.some(signed))
    }))
  })

  it("opens a token of another instance on the same secret, and none signed on another secret", () => {
    const token = seal.sign({ userId: 7 as UserId, kind: "reminder" })
    expect(HmacUnsubscribeSeal.make(Buffer.from(secret)).open(token)).toEqual(
      Option.some({ userId: 7, kind: "reminder" })
    )
    expect(HmacUnsubscribeSeal.make(Buffer.from("another secret of at least thirty-two bytes")).open(token))
      .toEqual(Option.none())
  })

  it("opens no token with any one character changed, dropped or added", () => {
    fc.assert(fc.property(target, fc.nat(), fc.constantFrom(...alphabet), (signed, at, letter) => {
      const token = seal.sign(signed)
      const i = at % token.length
      const changed = token.slice(0, i) + letter + token.slice(i + 1)
      if (changed !== token) expect(seal.open(changed)).toEqual(Option.none())
      expect(seal.open(token.slice(0, i) + token.slice(i + 1))).toEqual(Option.none())
      expect(seal.open(token.slice(0, i) + letter + token.slice(i))).toEqual(Option.none())
    }))
  })

  it("its key is not the token secret itself, nor the cursor seal's: a MAC under either opens nothing", () => {
    const text = Buffer.from("7.reminder")
    const underJwtKey = createHmac("sha256", secret).update(text).digest().subarray(0, 16)
    expect(seal.open(Buffer.concat([underJwtKey, text]).toString("base64url"))).toEqual(Option.none())
    const cursor = HmacCursorSeal.make(secret).seal("7.reminder")
    expect(seal.open(cursor)).toEqual(Option.none())
  })

  it("refuses a token beyond the bound unread, and what is not base64url", () => {
    expect(seal.open("A".repeat(129))).toEqual(Option.none())
    expect(seal.open("not a token!")).toEqual(Option.none())
    expect(seal.open("")).toEqual(Option.none())
  })
})
