import ical, { ICalEventStatus } from "ical-generator"
import { tzlib_get_ical_block } from "timezones-ical-library"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import { addMinutes, instantOf } from "./zonedTime.ts"

/** What one occurrence shows: when (a wall-clock time of the feed's zone), for how long, and its text. */
export interface FeedOccurrence {
  readonly start: LocalDateTime
  /** Minutes; null: no end (an event of no duration). */
  readonly duree: number | null
  readonly summary: string
  readonly description?: string | undefined
}

/** A single event: a session of its own. */
export interface FeedEvent extends FeedOccurrence {
  /** Stable across renders and changes: a calendar app matches updates by it. */
  readonly uid: string
  /** Incremented on every change of the event (RFC 5545 SEQUENCE). */
  readonly sequence: number
  readonly cancelled?: boolean | undefined
}

/** One occurrence of a series that differs from its rule: moved, changed, or cancelled. */
export interface FeedOverride {
  /** The occurrence's original start, as the rule gives it (RECURRENCE-ID). */
  readonly recurrenceId: LocalDateTime
  readonly sequence: number
  readonly occurrence: FeedOccurrence
}

/** An occurrence of a series that is cancelled: STATUS:CANCELLED under its RECURRENCE-ID. */
export interface FeedCancellation {
  /** The occurrence's start, as the rule gives it (RECURRENCE-ID). */
  readonly recurrenceId: LocalDateTime
  /** Above the series' own, so that calendar apps apply it over the instance they hold. */
  readonly sequence: number
}

/**
 * A recurring series: one VEVENT with its RRULE, EXDATEs for occurrences that no longer exist,
 * and one VEVENT per overridden or cancelled occurrence, all under the series' UID.
 */
export interface FeedSeries {
  readonly uid: string
  readonly sequence: number
  readonly dtstart: LocalDateTime
  readonly duree: number | null
  /** `FREQ=DAILY|WEEKLY;INTERVAL=n;BYDAY=...;COUNT=n|UNTIL=...`; an UNTIL may be a local date-time of the zone. */
  readonly rrule: string
  readonly summary: string
  readonly description?: string | undefined
  /** Occurrences removed from the series (EXDATE). */
  readonly exdates: ReadonlyArray<LocalDateTime>
  /** Occurrences cancelled: STATUS:CANCELLED under their RECURRENCE-ID. */
  readonly cancelled: ReadonlyArray<FeedCancellation>
  readonly overrides: ReadonlyArray<FeedOverride>
}

export interface FeedInput {
  readonly name: string
  /** The IANA zone every local date-time of the feed is in (the club's `ScheduleSettings.timeZone`). */
  readonly timeZone: string
  /** DTSTAMP of every event: when this content was last changed, so the same content renders the same bytes. */
  readonly stamp: Date
  readonly events: ReadonlyArray<FeedEvent>
  readonly series: ReadonlyArray<FeedSeries>
}

const basic = (local: LocalDateTime) => local.replaceAll("-", "").replaceAll(":", "")

const utcBasic = (instant: number) =>
  new Date(instant).toISOString().replace(/\.\d{3}Z$/u, "Z").replaceAll("-", "")
    .replaceAll(":", "")

/** An UNTIL written as a local time (`20261231T235959` or ISO) becomes the UTC instant RFC 5545 requires beside a TZID. */
const ruleInZone = (rrule: string, timeZone: string) =>
  rrule.replace(/^RRULE:/u, "").split(";").map((part) => {
    const [key, value] = part.split("=") as [string, string | undefined]
    if (key.toUpperCase() !== "UNTIL" || value === undefined || value.endsWith("Z")) return part
    const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2}):?(\d{2}))?$/u.exec(value)
    if (m === null) return part
    const local = `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? "23"}:${m[5] ?? "59"}:${m[6] ?? "59"}` as LocalDateTime
    return `UNTIL=${utcBasic(instantOf(local, timeZone))}`
  }).join(";")

/**
 * The iCalendar (RFC 5545) text of a feed: a VTIMEZONE for its zone, each event and series with
 * DTSTART;TZID=<zone>, and cancelled ones with STATUS:CANCELLED. Pure: the same input gives the
 * same text.
 */
export const renderFeed = (input: FeedInput): string => {
  const { timeZone } = input
  const calendar = ical({
    prodId: { company: "Club Training Service", product: "Planning", language: "EN" },
    name: input.name,
    timezone: { name: null, generator: (zone) => tzlib_get_ical_block(zone)[0] ?? null }
  })
  const add = (
    uid: string,
    sequence: number,
    occurrence: FeedOccurrence,
    extra: { readonly recurrenceId?: LocalDateTime; readonly cancelled?: boolean | undefined } = {}
  ) =>
    calendar.createEvent({
      id: uid,
      sequence,
      stamp: input.stamp,
      start: occurrence.start,
      ...(occurrence.duree === null ? {} : { end: addMinutes(occurrence.start, occurrence.duree, timeZone) }),
      timezone: timeZone,
      summary: occurrence.summary,
      ...(occurrence.description === undefined ? {} : { description: occurrence.description }),
      ...(extra.recurrenceId === undefined ? {} : { recurrenceId: extra.recurrenceId }),
      ...(extra.cancelled === true ? { status: ICalEventStatus.CANCELLED } : {})
    })

  for (const event of input.events) add(event.uid, event.sequence, event, { cancelled: event.cancelled })
  for (const series of input.series) {
    const master = add(series.uid, series.sequence, {
      start: series.dtstart,
      duree: series.duree,
      summary: series.summary,
      description: series.description
    })
    const exdates = series.exdates.map((date) => `EXDATE;TZID=${timeZone}:${basic(date)}`)
    master.repeating([`RRULE:${ruleInZone(series.rrule, timeZone)}`, ...exdates].join("\n"))
    const overridden = new Set(series.overrides.map((override) => override.recurrenceId))
    for (const { recurrenceId, sequence } of series.cancelled) {
      if (overridden.has(recurrenceId)) continue
      add(series.uid, sequence, {
        start: recurrenceId,
        duree: series.duree,
        summary: series.summary,
        description: series.description
      }, { recurrenceId, cancelled: true })
    }
    const cancelled = new Map(series.cancelled.map((c) => [c.recurrenceId, c.sequence]))
    for (const override of series.overrides) {
      const cancelledSequence = cancelled.get(override.recurrenceId)
      add(
        series.uid,
        cancelledSequence === undefined ? override.sequence : Math.max(override.sequence, cancelledSequence),
        override.occurrence,
        { recurrenceId: override.recurrenceId, cancelled: cancelledSequence !== undefined }
      )
    }
  }
  // ical-generator ends its text with `END:VCALENDAR` and no line break; RFC 5545 §3.4 ends every
  // content line, the last included, with CRLF.
  const text = calendar.toString()
  return text.endsWith("\r\n") ? text : `${text}\r\n`
}
