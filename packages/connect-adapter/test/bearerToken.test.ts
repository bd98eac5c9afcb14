import { describe, expect, it } from "vitest"
import { bearerToken } from "../src/index.ts"

describe("bearerToken", () => {
  it.each<[string | null, string]>([
    ["Bearer abc.def.ghi", "abc.def.ghi"],
    ["bearer abc", "abc"],
    ["Bearer   abc  ", "abc"],
    [null, ""],
    ["", ""],
    ["Bearer", ""],
    ["Bearer ", ""],
    ["Basic YTpi", ""],
    ["Bearer a b", ""]
  ])("%j gives %j", (header, token) => {
    expect(bearerToken(header)).toBe(token)
  })
})
