import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import * as rruleModule from "rrule"
import type { LocalDateTime } from "../src/index.ts"
import { occurrencesOf, parseRecurrenceRule, type RecurrenceRule } from "../src/calendar.ts"

const { RRule } = ("RRule" in rruleModule
  ? rruleModule
  : (rruleModule as unknown as { default: unknown }).default) as typeof rruleModule

const floating = (local: string) => new Date(`${local}Z`)
const local = (date: Date) => date.toISOString().slice(0, 19) as LocalDateTime

/**
 * The plain expansion: every occurrence walked from the series' start, then the window taken (the
 * rule's fields as `occurrencesOf` reads them: a date-only UNTIL is the end of that day).
 */
const walkedFromStart = (
  text: string,
  start: LocalDateTime,
  window: { readonly after?: LocalDateTime; readonly until?: LocalDateTime; readonly max: number }
) => {
  const rule = parseRecurrenceRule(text) as RecurrenceRule
  const all = new RRule({
    freq: rule.freq === "DAILY" ? RRule.DAILY : RRule.WEEKLY,
    interval: rule.interval,
    byweekday: rule.byDay.length === 0 ? null : rule.byDay.map((day) => RRule[day]),
    count: rule.count ?? null,
    until: rule.until === undefined ? null : floating(rule.until),
    dtstart: floating(start),
    wkst: RRule.MO
  }).all((date, index) => index < 20_000 && (window.until === undefined || date <= floating(window.until)))
  return all.filter((date) => window.after === undefined || date > floating(window.after)).slice(0, window.max).map(
    local
  )
}

const days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const
const dayMillis = 86_400_000

const ruleText = fc.record({
  freq: fc.constantFrom("DAILY", "WEEKLY"),
  interval: fc.integer({ min: 1, max: 15 }),
  byDay: fc.subarray([...days]),
  end: fc.oneof(
    fc.integer({ min: 1, max: 600 }).map((count) => `COUNT=${count}`),
    fc.integer({ min: 0, max: 3000 }).map((offset) =>
      `UNTIL=${local(new Date(Date.UTC(2024, 0, 1) + offset * dayMillis)).slice(0, 10).replaceAll("-", "")}`
    ),
    fc.constant("")
  )
}).map(({ byDay, end, freq, interval }) =>
  [
    `FREQ=${freq}`,
    `INTERVAL=${interval}`,
    ...(byDay.length > 0 ? [`BYDAY=${byDay.join(",")}`] : []),
    ...(end ? [end] : [])
  ]
    .join(";")
)

const startAt = fc.record({ day: fc.integer({ min: 0, max: 1500 }), minute: fc.integer({ min: 0, max: 24 * 60 - 1 }) })
  .map(({ day, minute }) => local(new Date(Date.UTC(2023, 0, 1) + day * dayMillis + minute * 60_000)))

describe("occurrencesOf after a point (the extension's walk, issue 37)", () => {
  it("answers what a walk from the series' start answers, for every rule of the subset", { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        ruleText,
        startAt,
        fc.integer({ min: -40 * 24 * 60, max: 2500 * 24 * 60 }),
        fc.option(fc.integer({ min: 0, max: 500 * 24 * 60 }), { nil: undefined }),
        fc.integer({ min: 1, max: 60 }),
        (text, start, afterMinutes, untilMinutes, max) => {
          const rule = parseRecurrenceRule(text) as RecurrenceRule
          const after = local(new Date(floating(start).getTime() + afterMinutes * 60_000))
          const until = untilMinutes === undefined
            ? undefined
            : local(new Date(floating(after).getTime() + untilMinutes * 60_000))
          const window = { after, ...(until === undefined ? {} : { until }), max }
          expect(occurrencesOf(rule, start, window)).toEqual(walkedFromStart(text, start, window))
        }
      ),
      { numRuns: 200 }
    )
  })

  it("skips what it has: the thousandth daily occurrence after the 999th, as the walk says", () => {
    const rule = parseRecurrenceRule("FREQ=DAILY;COUNT=1000") as RecurrenceRule
    const start = "2023-01-02T18:00:00" as LocalDateTime
    const window = { after: "2025-09-26T18:00:00" as LocalDateTime, max: 5 }
    expect(occurrencesOf(rule, start, window)).toEqual(["2025-09-27T18:00:00"])
    expect(occurrencesOf(rule, start, window)).toEqual(walkedFromStart("FREQ=DAILY;COUNT=1000", start, window))
    expect(occurrencesOf(rule, start, { after: "2025-09-27T18:00:00" as LocalDateTime, max: 5 })).toEqual([])
  })
})
