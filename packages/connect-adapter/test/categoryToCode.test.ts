import type { ErrorCategory } from "@club/core"
import { Code } from "@connectrpc/connect"
import { describe, expect, it } from "vitest"
import { categoryToCode } from "../src/index.ts"

describe("categoryToCode", () => {
  it.each<[ErrorCategory, Code]>([
    ["NotFound", Code.NotFound],
    ["Invalid", Code.InvalidArgument],
    ["Conflict", Code.AlreadyExists],
    ["Forbidden", Code.PermissionDenied],
    ["Unauthenticated", Code.Unauthenticated],
    ["RateLimited", Code.ResourceExhausted]
  ])("%s becomes Code %s", (category, code) => {
    expect(categoryToCode(category)).toBe(code)
  })
})
