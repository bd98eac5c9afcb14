import { describe, expect, it } from "@effect/vitest"
import { Effect, Equal, Exit } from "effect"
import { EntityNotFound, Unauthenticated } from "../src/index.ts"

const limit = () => (Error as { stackTraceLimit?: number }).stackTraceLimit

describe("expected errors carry no stack trace", () => {
  it("are built without stack frames, and leave the stack trace limit as it was", () => {
    const before = limit()
    const error = new EntityNotFound({ entity: "Session", id: 3 })
    expect(limit()).toBe(before)
    expect(error.stack).not.toContain("    at ")
    expect(new Error("a defect").stack).toContain("    at ")
  })

  it("are still the same errors: class, tag, message, category, equality, failure", () =>
    Effect.gen(function*() {
      const error = new EntityNotFound({ entity: "Session", id: 3 })
      expect(error).toBeInstanceOf(EntityNotFound)
      expect(error).toBeInstanceOf(Error)
      expect(error._tag).toBe("EntityNotFound")
      expect(error.message).toBe("Session not found with id 3")
      expect(error.category).toBe("NotFound")
      expect(Equal.equals(error, new EntityNotFound({ entity: "Session", id: 3 }))).toBe(true)
      // Still yieldable: `yield*` of one fails the effect with it.
      const exit = yield* Effect.exit(Effect.gen(function*() {
        return yield* new Unauthenticated({ reason: "missing" })
      }))
      expect(exit).toEqual(Exit.fail(new Unauthenticated({ reason: "missing" })))
    }))
})
