import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { independentInstant, wallClockIn } from "../src/zonedInstants.ts"

/**
 * The independent reading of wall-clock times the time-zone properties compare the store with:
 * an instant is a whole second, as the wall clock it reads is. Its gap branch once returned the
 * bisection's milliseconds with it (`2027-03-28T02:15:00` in Paris as 01:15:00.449Z), and the
 * over-the-wire property then took two sessions that touch for two that overlap.
 */

// Gaps and overlaps of an hour, of half an hour (Lord Howe) and zones off the hour.
const zones = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham", "UTC"]
const days = ["2027-03-28", "2027-10-31", "2027-03-14", "2027-11-07", "2027-04-04", "2027-10-03", "2027-09-26"]
const pad = (n: number) => String(n).padStart(2, "0")
const local = fc.record({
  day: fc.constantFrom(...days),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.constantFrom(0, 1, 30, 59)
}).map(({ day, hour, minute, second }) => `${day}T${pad(hour)}:${pad(minute)}:${pad(second)}`)

describe("independentInstant", () => {
  it("reads a time in a gap with the offset in force before it, to the second", () => {
    expect(independentInstant("Europe/Paris", "2027-03-28T02:15:00")).toBe(Date.parse("2027-03-28T01:15:00Z"))
    // Lord Howe moves from +10:30 to +11 at 02:00 on 2027-10-03.
    expect(independentInstant("Australia/Lord_Howe", "2027-10-03T02:15:00")).toBe(
      Date.parse("2027-10-02T15:45:00Z")
    )
  })

  it("answers a whole second that shows the time asked, or, in a gap, the time read with the earlier offset", () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), local, (zone, time) => {
        const instant = independentInstant(zone, time)
        expect(instant % 1000).toBe(0)
        const shown = wallClockIn(zone, instant)
        if (shown !== time) {
          // A gap, which the clock jumped over: the time read with the offset of a few hours before.
          const before = instant - 6 * 3_600_000
          const offset = Date.parse(`${wallClockIn(zone, before)}Z`) - before
          expect(Date.parse(`${time}Z`) - offset).toBe(instant)
          expect(shown > time).toBe(true)
        }
      }),
      { numRuns: 400 }
    )
  })
})
