import ICAL from "ical.js"
import { describe, expect, it } from "vitest"
import type { LocalDateTime } from "../../src/index.ts"
import { type FeedSeries, renderFeed } from "../../src/calendar.ts"
import { expandFeed } from "./expandFeed.ts"

const at = (s: string) => s as LocalDateTime
const timeZone = "Europe/Paris"
const stamp = new Date("2026-01-01T00:00:00Z")

/** Sundays at 10:00 in Paris across the change to summer time (29 March 2026, 02:00 -> 03:00). */
const spring: FeedSeries = {
  uid: "series-1@club",
  sequence: 2,
  dtstart: at("2026-03-15T10:00:00"),
  duree: 90,
  rrule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=SU;COUNT=5",
  summary: "Long run",
  exdates: [at("2026-04-05T10:00:00")],
  cancelled: [{ recurrenceId: at("2026-03-22T10:00:00"), sequence: 3 }],
  overrides: [{
    recurrenceId: at("2026-04-12T10:00:00"),
    sequence: 3,
    occurrence: { start: at("2026-04-12T11:00:00"), duree: 60, summary: "Long run (moved)" }
  }]
}

/** Daily at 18:30 across the change to winter time (25 October 2026, 03:00 -> 02:00), until a local time. */
const autumn: FeedSeries = {
  uid: "series-2@club",
  sequence: 0,
  dtstart: at("2026-10-23T18:30:00"),
  duree: 60,
  rrule: "FREQ=DAILY;UNTIL=20261027T183000",
  summary: "Track",
  exdates: [],
  cancelled: [],
  overrides: []
}

describe("renderFeed, read back with ical.js", () => {
  it("ends with END:VCALENDAR and CRLF (RFC 5545 §3.4), every line with CRLF", () => {
    const text = renderFeed({ name: "Feed", timeZone: "Europe/Paris", stamp: new Date(0), series: [], events: [] })
    // ASCII at the end: each character is one byte.
    const lastBytes = Array.from(text.slice(-15), (character) => character.charCodeAt(0))
    expect(lastBytes).toEqual(
      [...Array.from("END:VCALENDAR"), 13, 10].map((c) => typeof c === "string" ? c.charCodeAt(0) : c)
    )
    expect(text.split("\r\n").slice(0, -1).every((line) => !line.includes("\n") && !line.includes("\r"))).toBe(true)
  })

  it("writes a VTIMEZONE for the club's zone and every DTSTART with its TZID", () => {
    const text = renderFeed({ name: "Feed", timeZone, stamp, events: [], series: [spring] })
    const calendar = new ICAL.Component(ICAL.parse(text))
    expect(calendar.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe(timeZone)
    for (const event of calendar.getAllSubcomponents("vevent")) {
      expect(event.getFirstProperty("dtstart")?.getParameter("tzid")).toBe(timeZone)
    }
    expect(text).toMatch(/^RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=SU;COUNT=5\r?$/mu)
    expect(text).toMatch(/^EXDATE;TZID=Europe\/Paris:20260405T100000\r?$/mu)
    expect(text).toMatch(/^RECURRENCE-ID;TZID=Europe\/Paris:20260412T100000\r?$/mu)
  })

  it("expands a weekly series across the change to summer time: the same wall-clock time, EXDATE gone, cancelled and moved occurrences as stored", () => {
    const text = renderFeed({ name: "Feed", timeZone, stamp, events: [], series: [spring] })
    const occurrence = (start: string, end: string, summary: string, status: string | null, sequence: number) => ({
      uid: spring.uid,
      start,
      end,
      summary,
      status,
      sequence
    })
    expect(expandFeed(text)).toEqual([
      // 10:00 CET is 09:00 UTC; from 29 March, 10:00 CEST is 08:00 UTC.
      occurrence("2026-03-15T09:00:00.000Z", "2026-03-15T10:30:00.000Z", "Long run", null, 2),
      occurrence("2026-03-22T09:00:00.000Z", "2026-03-22T10:30:00.000Z", "Long run", "CANCELLED", 3),
      occurrence("2026-03-29T08:00:00.000Z", "2026-03-29T09:30:00.000Z", "Long run", null, 2),
      occurrence("2026-04-12T09:00:00.000Z", "2026-04-12T10:00:00.000Z", "Long run (moved)", null, 3)
    ])
  })

  it("expands a daily series across the change to winter time, its local UNTIL included", () => {
    const text = renderFeed({ name: "Feed", timeZone, stamp, events: [], series: [autumn] })
    expect(text).toMatch(/^RRULE:FREQ=DAILY;UNTIL=20261027T173000Z\r?$/mu)
    expect(expandFeed(text).map((occurrence) => occurrence.start)).toEqual([
      "2026-10-23T16:30:00.000Z",
      "2026-10-24T16:30:00.000Z",
      "2026-10-25T17:30:00.000Z",
      "2026-10-26T17:30:00.000Z",
      "2026-10-27T17:30:00.000Z"
    ])
  })

  it("writes single events at their wall-clock time, cancelled ones with STATUS:CANCELLED, no end without a duree", () => {
    const text = renderFeed({
      name: "Feed",
      timeZone,
      stamp,
      series: [],
      events: [
        { uid: "session-1@club", sequence: 0, start: at("2026-03-29T10:00:00"), duree: 30, summary: "One" },
        {
          uid: "session-2@club",
          sequence: 4,
          start: at("2026-10-25T10:00:00"),
          duree: null,
          summary: "Two",
          cancelled: true
        }
      ]
    })
    expect(expandFeed(text)).toEqual([
      {
        uid: "session-1@club",
        start: "2026-03-29T08:00:00.000Z",
        end: "2026-03-29T08:30:00.000Z",
        summary: "One",
        status: null,
        sequence: 0
      },
      // The day winter time starts: 10:00 CET is 09:00 UTC.
      {
        uid: "session-2@club",
        start: "2026-10-25T09:00:00.000Z",
        end: null,
        summary: "Two",
        status: "CANCELLED",
        sequence: 4
      }
    ])
  })
})
