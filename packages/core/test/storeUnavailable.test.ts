import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { isUnavailable, StoreUnavailable } from "../src/index.ts"

describe("isUnavailable", () => {
  it("recognises a store that cannot be reached now, and keeps what the store reported", () => {
    const reported = new Error("connect ECONNREFUSED 127.0.0.1:5432")
    const outage = new StoreUnavailable({ cause: reported })
    expect(isUnavailable(outage)).toBe(true)
    expect(outage.cause).toBe(reported)
    expect(String(outage)).toContain("ECONNREFUSED")
    expect(new StoreUnavailable({ cause: undefined }).message).toBe("The store cannot be reached now")
  })

  it("recognises one built by another copy of core, by its type id", () => {
    expect(isUnavailable({ "~@club/core/StoreUnavailable": "~@club/core/StoreUnavailable" })).toBe(true)
  })

  it("recognises it as the defect a port dies with", () => {
    const exit = Effect.runSyncExit(Effect.die(new StoreUnavailable({ cause: new Error("cut") })))
    const defects = Exit.isFailure(exit)
      ? exit.cause.reasons.filter(Cause.isDieReason).map((reason) => reason.defect)
      : []
    expect(defects.some(isUnavailable)).toBe(true)
  })

  it("leaves every other defect a defect: bugs, and the store's errors its adapter did not classify as an outage", () => {
    expect(isUnavailable(new Error("ECONNREFUSED"))).toBe(false)
    expect(isUnavailable({ _tag: "SqlError", reason: { _tag: "ConnectionError" } })).toBe(false)
    expect(isUnavailable({ _tag: "StoreUnavailable" })).toBe(false)
    expect(isUnavailable(undefined)).toBe(false)
    expect(isUnavailable("StoreUnavailable")).toBe(false)
  })
})
