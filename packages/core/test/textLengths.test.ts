import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Password, RoleFromAnyCase, ShortText } from "../src/index.ts"

/**
 * Text bounds count characters as JSON Schema's `minLength` and `maxLength` do, in Unicode code
 * points, so that the OpenAPI document states exactly the bound the server applies.
 */
const emoji = "\u{1F3C3}" // one code point, two UTF-16 code units

describe("text lengths, in code points", () => {
  it("a short text takes 200 characters, emoji included, and not 201", () => {
    expect(Schema.is(ShortText)(emoji.repeat(200))).toBe(true)
    expect(Schema.is(ShortText)(emoji.repeat(201))).toBe(false)
    expect(Schema.is(ShortText)("a".repeat(201))).toBe(false)
    expect(Schema.toJsonSchemaDocument(ShortText).schema).toEqual({ type: "string", maxLength: 200 })
  })

  it("a password has 8 to 1,000 characters", () => {
    expect(Schema.is(Password)(emoji.repeat(8))).toBe(true)
    expect(Schema.is(Password)(emoji.repeat(4))).toBe(false)
    expect(Schema.is(Password)("seven77")).toBe(false)
    expect(Schema.toJsonSchemaDocument(Password).schema).toEqual({ type: "string", minLength: 8, maxLength: 1000 })
  })

  it("keeps the messages a length check gave", () => {
    expect(() => Schema.decodeUnknownSync(ShortText)("a".repeat(201))).toThrow(
      "Expected a value with a length of at most 200"
    )
    expect(() => Schema.decodeUnknownSync(Password)("short")).toThrow("Expected a value with a length of at least 8")
  })
})

describe("the role on input", () => {
  it("reads any letter case, and lists the three roles for JSON Schema", () => {
    expect(Schema.decodeUnknownSync(RoleFromAnyCase)("coach")).toBe("COACH")
    expect(Schema.is(Schema.toEncoded(RoleFromAnyCase))("Owner")).toBe(false)
    // The enum comes as a check, an `allOf` member beside the string (the OpenAPI document merges it).
    const schema = Schema.toJsonSchemaDocument(RoleFromAnyCase).schema as {
      type?: string
      allOf?: Array<{ enum?: unknown }>
    }
    expect(schema.type).toBe("string")
    expect(schema.allOf).toEqual([{ enum: ["ADMIN", "COACH", "ATHLETE"] }])
  })
})
