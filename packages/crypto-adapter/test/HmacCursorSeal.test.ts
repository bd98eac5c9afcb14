import { describe, expect, it } from "vitest"
import * as fc from "fast-check"
import { Option } from "effect"
import * as HmacCursorSeal from "../src/HmacCursorSeal.ts"

const secret = Buffer.from("a test secret of at least thirty-two bytes")
const seal = HmacCursorSeal.make(secret)
const base64url = /^[A-Za-z0-9_-]+$/u
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

describe("HmacCursorSeal", () => {
  it("opens what it sealed, for any position text, as base64url", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (position) => {
      const cursor = seal.seal(position)
      expect(cursor).toMatch(base64url)
      expect(seal.open(cursor)).toEqual(Option.some(position))
    }))
  })

  it("opens a cursor sealed by another instance on the same secret, and none sealed on another", () => {
    const cursor = seal.seal("[null,1]")
    expect(HmacCursorSeal.make(Buffer.from(secret)).open(cursor)).toEqual(Option.some("[null,1]"))
    expect(HmacCursorSeal.make(Buffer.from("another secret of at least thirty-two bytes")).open(cursor))
      .toEqual(Option.none())
  })

  it("opens no cursor with any one character changed, dropped or added", () => {
    fc.assert(fc.property(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.nat(),
      fc.constantFrom(...alphabet),
      fc.constantFrom("replace", "drop", "add"),
      (position, index, character, edit) => {
        const cursor = seal.seal(position)
        const at = index % cursor.length
        const changed = edit === "replace"
          ? `${cursor.slice(0, at)}${character}${cursor.slice(at + 1)}`
          : edit === "drop"
          ? `${cursor.slice(0, at)}${cursor.slice(at + 1)}`
          : `${cursor.slice(0, at)}${character}${cursor.slice(at)}`
        fc.pre(changed !== cursor)
        expect(seal.open(changed)).toEqual(Option.none())
      }
    ))
  })

  it("opens nothing it did not seal: a bare position, empty text, text outside base64url, a cursor cut short", () => {
    const cursor = seal.seal("[\"2027-01-01T10:00:00\",7]")
    for (
      const text of [
        Buffer.from("[null,1]").toString("base64url"),
        "",
        "A",
        `${cursor}=`,
        cursor.replace(/[A-Za-z]/u, "+"),
        cursor.slice(0, 21),
        cursor.slice(22)
      ]
    ) {
      expect(seal.open(text), text).toEqual(Option.none())
    }
  })
})
