import * as rruleModule from "rrule"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"

/**
 * The `rrule` package ships CommonJS to Node (its ESM build is only named by the bundler-only
 * `module` field): Node's ESM loader hands it over as the default export, bundlers as named exports.
 */
const { RRule } = ("RRule" in rruleModule
  ? rruleModule
  : (rruleModule as unknown as { default: unknown }).default) as typeof rruleModule

/**
 * The subset of RFC 5545's RRULE a series takes (docs/schedule/series.md): `FREQ` (DAILY or
 * WEEKLY, required), `INTERVAL` (a positive integer), `BYDAY` (weekday codes without an ordinal),
 * and at most one of `COUNT` (a positive integer) or `UNTIL` (a floating local date or date-time,
 * `20270630` or `20270630T235959`, no `Z`: the series repeats in the club's wall-clock time).
 */
export interface RecurrenceRule {
  readonly freq: "DAILY" | "WEEKLY"
  readonly interval: number
  readonly byDay: ReadonlyArray<Weekday>
  readonly count: number | undefined
  /** Inclusive, as RFC 5545 says. */
  readonly until: LocalDateTime | undefined
}

const weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const
type Weekday = typeof weekdays[number]

const positiveInteger = /^[1-9][0-9]{0,5}$/u
const untilPattern = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?$/u

/** Why a rule is refused, as the problem's detail says it after the field's name. */
export type RuleRefusal = string

/** The rule `text` spells, or why it is outside the subset. */
export const parseRecurrenceRule = (text: string): RecurrenceRule | RuleRefusal => {
  const parts = new Map<string, string>()
  for (const part of text.split(";")) {
    const match = /^([A-Z]+)=(.+)$/u.exec(part)
    if (match === null) return `"${part}" is not a NAME=VALUE part`
    const [, name, value] = match as unknown as [string, string, string]
    if (!["FREQ", "INTERVAL", "BYDAY", "COUNT", "UNTIL"].includes(name)) {
      return `${name} is outside the supported subset (FREQ, INTERVAL, BYDAY, COUNT, UNTIL)`
    }
    if (parts.has(name)) return `${name} is given twice`
    parts.set(name, value)
  }
  const freq = parts.get("FREQ")
  if (freq !== "DAILY" && freq !== "WEEKLY") return "FREQ must be DAILY or WEEKLY"
  const intervalText = parts.get("INTERVAL") ?? "1"
  if (!positiveInteger.test(intervalText)) return "INTERVAL must be a positive integer"
  const byDayText = parts.get("BYDAY")
  const byDay = byDayText === undefined ? [] : byDayText.split(",")
  if (!byDay.every((day): day is Weekday => (weekdays as ReadonlyArray<string>).includes(day))) {
    return "BYDAY must list weekday codes (MO, TU, WE, TH, FR, SA, SU) without an ordinal"
  }
  if (parts.has("COUNT") && parts.has("UNTIL")) return "COUNT and UNTIL cannot both be given"
  const countText = parts.get("COUNT")
  if (countText !== undefined && !positiveInteger.test(countText)) return "COUNT must be a positive integer"
  const untilText = parts.get("UNTIL")
  let until: LocalDateTime | undefined
  if (untilText !== undefined) {
    const m = untilPattern.exec(untilText)
    if (m === null) return "UNTIL must be a floating local date or date-time (20270630 or 20270630T235959)"
    const [, y, mo, d, h = "23", mi = "59", s = "59"] = m as unknown as Array<string>
    until = `${y}-${mo}-${d}T${h}:${mi}:${s}` as LocalDateTime
    if (Number.isNaN(Date.parse(`${until}Z`)) || toFloating(until).toISOString().slice(0, 19) !== until) {
      return "UNTIL is not a real date"
    }
  }
  return {
    freq,
    interval: Number(intervalText),
    byDay: [...new Set(byDay)],
    count: countText === undefined ? undefined : Number(countText),
    until
  }
}

/** A wall-clock time as the `Date` at that time in UTC: `rrule` expands floating times this way. */
const toFloating = (local: LocalDateTime): Date => new Date(`${local}Z`)
const fromFloating = (date: Date): LocalDateTime => date.toISOString().slice(0, 19) as LocalDateTime

/** Which occurrences `occurrencesOf` answers. */
export interface OccurrenceWindow {
  /** Only those strictly after this time. */
  readonly after?: LocalDateTime | undefined
  /** Only those up to and including this time. */
  readonly until?: LocalDateTime | undefined
  /** At most this many (those of the window, in time order). */
  readonly max: number
}

/**
 * The occurrences of `rule` from `start` (the series' first wall-clock time; the start itself
 * when it matches the rule) within `window`, ascending. Expanded in floating local time: 18:00
 * stays 18:00 whatever the club's zone does meanwhile.
 */
export const occurrencesOf = (
  rule: RecurrenceRule,
  start: LocalDateTime,
  window: OccurrenceWindow
): ReadonlyArray<LocalDateTime> => {
  // `rrule` only looks at the window on a day the rule keeps: a rule that keeps none walks to 9999.
  if (!everOccurs(rule, start)) return []
  const after = window.after === undefined ? undefined : toFloating(window.after)
  const end = window.until === undefined ? undefined : toFloating(window.until)
  const resumed = resumeBefore(rule, toFloating(start), after)
  if (resumed === undefined) return []
  let taken = 0
  const dates = expanderOf(rule, resumed.start, resumed.count).all((date) => {
    if (end !== undefined && date > end) return false
    if (after !== undefined && date <= after) return true
    taken++
    return taken <= window.max
  })
  return dates.filter((date) => after === undefined || date > after).map(fromFloating)
}

const dayMillis = 86_400_000

const greatestCommonDivisor = (a: number, b: number): number => b === 0 ? a : greatestCommonDivisor(b, a % b)

/**
 * The days after which the rule's occurrences repeat themselves from the start on: a WEEKLY
 * rule's period of INTERVAL weeks, a DAILY rule's INTERVAL, or with BYDAY the days after which
 * both the INTERVAL and the weekdays come round again.
 */
const repeatDays = (rule: RecurrenceRule): number =>
  rule.freq === "WEEKLY"
    ? 7 * rule.interval
    : rule.byDay.length === 0
    ? rule.interval
    : rule.interval * 7 / greatestCommonDivisor(rule.interval, 7)

const expanderOf = (rule: RecurrenceRule, dtstart: Date, count: number | undefined) =>
  new RRule({
    freq: rule.freq === "DAILY" ? RRule.DAILY : RRule.WEEKLY,
    interval: rule.interval,
    byweekday: rule.byDay.length === 0 ? null : rule.byDay.map((day) => RRule[day]),
    count: count ?? null,
    until: rule.until === undefined ? null : toFloating(rule.until),
    dtstart,
    wkst: RRule.MO
  })

/**
 * Where a walk for the occurrences after `after` may begin, and the COUNT left from there: the
 * start moved on by whole repeats (`repeatDays`) up to `after`, so that extending a long series
 * does not walk again every occurrence it already has (a series' extension asks for a few
 * occurrences at a time, issue 37). A moved start keeps every occurrence from it on, as the
 * pattern repeats; the occurrences it skips are those of the first repeat (partial for a WEEKLY
 * rule whose start is not its week's first kept day) and as many as the second holds for each
 * further one. `undefined` when COUNT ends before `after`.
 */
const resumeBefore = (
  rule: RecurrenceRule,
  start: Date,
  after: Date | undefined
): { readonly start: Date; readonly count: number | undefined } | undefined => {
  const repeat = repeatDays(rule) * dayMillis
  const repeats = after === undefined ? 0 : Math.floor((after.getTime() - start.getTime()) / repeat)
  if (repeats < 1) return { start, count: rule.count }
  const moved = new Date(start.getTime() + repeats * repeat)
  if (rule.count === undefined) return { start: moved, count: undefined }
  const unbounded = expanderOf({ ...rule, count: undefined, until: undefined }, start, undefined)
  const within = (from: number, to: number) =>
    unbounded.between(new Date(start.getTime() + from), new Date(start.getTime() + to - 1), true).length
  const skipped = within(0, repeat) + (repeats - 1) * within(repeat, 2 * repeat)
  return skipped >= rule.count ? undefined : { start: moved, count: rule.count - skipped }
}

/**
 * Whether `rule` gives any occurrence from `start`, decided without a walk. In the subset, only a
 * DAILY rule whose INTERVAL is a multiple of seven and whose BYDAY leaves out the start's weekday
 * never does (it visits that one weekday only); every other rule keeps a day within its first
 * seven periods (a WEEKLY period holds every weekday; a DAILY INTERVAL prime to seven visits them
 * all), so an expansion walks at most seven periods per occurrence.
 */
export const everOccurs = (rule: RecurrenceRule, start: LocalDateTime): boolean => {
  if (rule.freq !== "DAILY" || rule.byDay.length === 0 || rule.interval % 7 !== 0) return true
  const weekday = weekdays[(toFloating(start).getUTCDay() + 6) % 7]!
  return rule.byDay.includes(weekday)
}

/** Whether the rule stops by itself (COUNT or UNTIL). */
export const isBounded = (rule: RecurrenceRule): boolean => rule.count !== undefined || rule.until !== undefined
