import { describe, expect, it } from "vitest"
import type { LocalDateTime } from "../../src/index.ts"
import { addMinutes, instantOf, localAt } from "../../src/feeds/zonedTime.ts"

const referenceFormatters = new Map<string, Intl.DateTimeFormat>()

/** The wall clock as Intl reads it at this very instant: what localAt must answer. */
const intlWallClock = (instant: number, timeZone: string): string => {
  if (!referenceFormatters.has(timeZone)) {
    referenceFormatters.set(
      timeZone,
      new Intl.DateTimeFormat("en-CA", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit"
      })
    )
  }
  const parts = referenceFormatters.get(timeZone)!.formatToParts(new Date(instant))
  const part = (type: string) => parts.find((p) => p.type === type)!.value
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")}`
}

// Paris (whole-hour changes), Lord Howe (a half-hour change), Kathmandu (a +05:45 offset), UTC.
const zones = ["Europe/Paris", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Sao_Paulo", "UTC"]

describe("wall-clock times of a zone (offsets kept per quarter hour)", () => {
  it("reads every instant as Intl does, every few minutes across a year's daylight-saving changes and at odd seconds", () => {
    for (const timeZone of zones) {
      // Every 7 minutes and 13 seconds over 2026: every quarter hour's offset is met at many instants.
      for (let instant = Date.UTC(2026, 0, 1); instant < Date.UTC(2027, 0, 1); instant += 433_000) {
        expect(localAt(instant, timeZone), `${timeZone} at ${new Date(instant).toISOString()}`).toBe(
          intlWallClock(instant, timeZone)
        )
      }
    }
  })

  it("turns a wall-clock time back into its instant, a skipped one with the offset before, a repeated one as its first", () => {
    const paris = "Europe/Paris"
    expect(new Date(instantOf("2026-03-29T10:00:00" as LocalDateTime, paris)).toISOString()).toBe(
      "2026-03-29T08:00:00.000Z"
    )
    expect(new Date(instantOf("2026-03-29T02:30:00" as LocalDateTime, paris)).toISOString()).toBe(
      "2026-03-29T01:30:00.000Z"
    )
    expect(new Date(instantOf("2026-10-25T02:30:00" as LocalDateTime, paris)).toISOString()).toBe(
      "2026-10-25T00:30:00.000Z"
    )
    expect(addMinutes("2026-03-29T01:30:00" as LocalDateTime, 60, paris)).toBe("2026-03-29T03:30:00")
  })
})
