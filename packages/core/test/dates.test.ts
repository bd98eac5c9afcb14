import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import fc from "fast-check"
import { CalendarDate, LocalDateTime, startOfDay } from "../src/index.ts"

const isLocal = Schema.is(LocalDateTime)
const isDate = Schema.is(CalendarDate)

describe("dates", () => {
  it("accepts ISO local date-times without offset", () => {
    expect(isLocal("2026-11-21T18:30:00")).toBe(true)
    expect(isLocal("2024-02-29T00:00:00")).toBe(true)
  })

  it("refuses offsets, impossible days and hours", () => {
    for (
      const s of [
        "2026-11-21T18:30:00Z",
        "2026-11-21T18:30:00+01:00",
        "2025-02-29T10:00:00",
        "2026-11-21T24:00:00",
        "2026-13-01T10:00:00",
        "2026-11-21",
        "x"
      ]
    ) {
      expect(isLocal(s), s).toBe(false)
    }
  })

  it("accepts calendar dates and refuses anything else", () => {
    expect(isDate("2026-11-21")).toBe(true)
    for (const s of ["2026-11-31", "2026-1-01", "2026-11-21T00:00:00", "21/11/2026", ""]) {
      expect(isDate(s), s).toBe(false)
    }
  })

  it("states in JSON Schema what it checks: the pattern takes every value the schema takes, and refuses what it can tell apart", () => {
    const localPattern = new RegExp(Schema.toJsonSchemaDocument(LocalDateTime).schema["pattern"] as string, "u")
    const datePattern = new RegExp(Schema.toJsonSchemaDocument(CalendarDate).schema["pattern"] as string, "u")
    expect(Schema.toJsonSchemaDocument(CalendarDate).schema["format"]).toBe("date")
    for (const s of ["2026-11-21T18:30:00", "2024-02-29T23:59:59", "0100-01-01T00:00:00", "9999-12-31T23:59:59"]) {
      expect([isLocal(s), localPattern.test(s)], s).toEqual([true, true])
    }
    for (
      const s of [
        "2026-11-21T18:30:00Z",
        "2026-11-21T24:00:00",
        "2026-13-01T10:00:00",
        "0099-12-31T10:00:00",
        "2026-11-21"
      ]
    ) {
      expect([isLocal(s), localPattern.test(s)], s).toEqual([false, false])
    }
    for (const s of ["2026-11-21", "0100-01-01"]) expect([isDate(s), datePattern.test(s)], s).toEqual([true, true])
    for (const s of ["2026-1-01", "0050-01-01", "2026-00-10", "2026-11-21T00:00:00"]) {
      expect([isDate(s), datePattern.test(s)], s).toEqual([false, false])
    }
    // A day its month lacks passes the pattern; the schema refuses it (the document says so).
    expect([isDate("2026-02-30"), datePattern.test("2026-02-30")]).toEqual([false, true])
  })

  it("'after a date' starts at midnight of that day", () => {
    expect(startOfDay(Schema.decodeUnknownSync(CalendarDate)("2026-11-21"))).toBe("2026-11-21T00:00:00")
  })

  it("takes exactly the days JavaScript's Date has, from year 0100 on, whatever digits are written", () => {
    // The oracle is the Date built and read back, as the check was written before it counted days.
    const isDayOfDate = (year: number, month: number, day: number) => {
      const date = new globalThis.Date(globalThis.Date.UTC(year, month - 1, day))
      return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    }
    const digits = (value: number, width: number) => String(value).padStart(width, "0")
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 99, 100, 1900, 2000, 2100, 2400, 9999)),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (year, month, day) => {
          const date = `${digits(year, 4)}-${digits(month, 2)}-${digits(day, 2)}`
          const expected = isDayOfDate(year, month, day)
          expect(isDate(date), date).toBe(expected)
          expect(isLocal(`${date}T23:59:59`), date).toBe(expected)
        }
      ),
      { numRuns: 20_000 }
    )
  })
})
