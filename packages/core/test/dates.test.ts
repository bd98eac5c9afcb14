import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { CalendarDate, LocalDateTime, startOfDay } from "../src/index.ts"

const isLocal = Schema.is(LocalDateTime)
const isDate = Schema.is(CalendarDate)

describe("dates", () => {
  it("accepts ISO local date-times without offset", () => {
    expect(isLocal("2026-11-21T18:30:00")).toBe(true)
    expect(isLocal("2024-02-29T00:00:00")).toBe(true)
  })

  it("refuses offsets, impossible days and hours", () => {
    for (const s of ["2026-11-21T18:30:00Z", "2026-11-21T18:30:00+01:00", "2025-02-29T10:00:00", "2026-11-21T24:00:00", "2026-13-01T10:00:00", "2026-11-21", "x"]) {
      expect(isLocal(s), s).toBe(false)
    }
  })

  it("accepts calendar dates and refuses anything else", () => {
    expect(isDate("2026-11-21")).toBe(true)
    for (const s of ["2026-11-31", "2026-1-01", "2026-11-21T00:00:00", "21/11/2026", ""]) {
      expect(isDate(s), s).toBe(false)
    }
  })

  it("'after a date' starts at midnight of that day", () => {
    expect(startOfDay(Schema.decodeUnknownSync(CalendarDate)("2026-11-21"))).toBe("2026-11-21T00:00:00")
  })
})
