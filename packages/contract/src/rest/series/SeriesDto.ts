import { Schema } from "effect"
import {
  DoubleBooking,
  DoubleBookingPage,
  Occurrence,
  OccurrenceChange,
  Series,
  SeriesChange,
  SeriesCreate
} from "@club/core"
import { documented } from "../shared/documented.ts"
import { seedFields } from "../shared/SeedInput.ts"

/** The series every example of the document shows, as its create body gives it. */
const seriesCreateExample = {
  name: "Tuesday and Thursday track",
  groupe: "Seniors",
  coachId: 2,
  athleteIds: [3, 4],
  duree: 90,
  start: "2026-11-24T18:30:00",
  rrule: "FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630"
} as const

/** The body of a series create: core's `SeriesCreate`, its nullable fields and list optional on the wire. */
export const SeriesCreateInput = documented(
  Schema.Struct(seedFields(SeriesCreate.fields)),
  "SeriesCreate",
  "A recurring series: `start` is the first wall-clock time at the club (as a session's `creneau`), `duree` is in minutes, and `rrule` is an RFC 5545 RRULE subset (FREQ=DAILY|WEEKLY, INTERVAL, BYDAY, and COUNT or UNTIL, UNTIL floating without `Z`). The coach and athletes must exist.",
  [seriesCreateExample]
)

const OccurrenceDto = Schema.Struct(Occurrence.fields).annotate({
  identifier: "Occurrence",
  description:
    "One occurrence of a series: the session it is, at the wall-clock time the rule gave it; `overridden` when it was changed by itself, which later changes of the series leave alone."
})

export const SeriesDto = documented(
  Schema.Struct({ ...Series.fields, occurrences: Schema.Array(OccurrenceDto) }),
  "Series",
  "A recurring series and its occurrences, each a session (`isRecurrent: true`) that the seed's session endpoints show. Occurrences exist up to `expandedUntil` (the club's horizon); later ones are created as time passes, until `endsBefore` when a cancellation ended the series.",
  [{
    id: 1,
    ...seriesCreateExample,
    expandedUntil: "2027-05-25T10:00:00",
    endsBefore: null,
    continuedBy: null,
    revision: 0,
    occurrences: [{ sessionId: 7, occurrenceStart: "2026-11-24T18:30:00", overridden: false }]
  }]
)
export type SeriesDto = typeof SeriesDto.Type

export const DoubleBookingDto = documented(
  Schema.Struct(DoubleBooking.fields),
  "DoubleBooking",
  "Two sessions (`sessionId` the smaller id) that book the same coach (`coachId`) or the same athlete (`athleteId`) at overlapping instants: `[creneau, creneau + duree minutes)` in the club's zone.",
  [{ sessionId: 7, otherSessionId: 9, coachId: 2, athleteId: null }]
)

export const DoubleBookingPageDto = documented(
  Schema.Struct({
    items: Schema.Array(DoubleBookingDto),
    nextCursor: DoubleBookingPage.fields.nextCursor.annotate({
      description: "The `cursor` of the next page; null on the last page."
    })
  }),
  "DoubleBookingPage",
  "One page of double bookings, by session, then other session, the coach before the athletes (by id), and the cursor of the next page.",
  [{
    items: [{ sessionId: 7, otherSessionId: 9, coachId: 2, athleteId: null }],
    nextCursor: "WzcsOSwwLDJd"
  }]
)

/** The body of a series change: the fields given are changed, the others kept. */
export const SeriesChangeInput = documented(
  Schema.Struct(SeriesChange.fields),
  "SeriesChange",
  "What changes in the occurrences to come: only the fields given (null clears `name`, `groupe` or `coachId`; `athleteIds` becomes the whole list). `duree` is in minutes; `time` is the new wall-clock time of day of the occurrences, which keep their days.",
  [{ name: "Track (indoor)", coachId: 5, time: "19:00:00" }]
)

/** The body of an occurrence change: a series change, and `creneau` to move one occurrence anywhere. */
export const OccurrenceChangeInput = documented(
  Schema.Struct(OccurrenceChange.fields),
  "OccurrenceChange",
  "What changes in the occurrence (or, with `scope=following`, in it and the later ones): only the fields given, as a series change takes them. `creneau` moves one occurrence (`scope=one`) to any wall-clock time to come.",
  [{ creneau: "2026-12-02T19:00:00", duree: 60 }]
)
