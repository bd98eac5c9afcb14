import { Schema } from "effect"
import { AthleteId, CoachId, SeriesId, SessionId } from "./Ids.ts"
import { LocalDateTime } from "./LocalDateTime.ts"
import { Duree } from "./Session.ts"
import { BoundedArray, ShortText } from "./Text.ts"

/**
 * A series' recurrence rule as it is written: RFC 5545 RRULE text, without the `RRULE:` prefix
 * (`FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630`). Its subset is checked by `parseRecurrenceRule`.
 */
export const RruleText = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({
  description:
    "An RFC 5545 RRULE subset: FREQ=DAILY|WEEKLY, INTERVAL, BYDAY (weekday codes), and COUNT or UNTIL (floating, no Z).",
  examples: ["FREQ=WEEKLY;BYDAY=TU,TH;COUNT=20"]
})

/** A series' duration in minutes (docs/DECISIONS.md "Durations in minutes"), at least one. */
export const SeriesDuree = Duree.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
  description: "Minutes."
})

/**
 * A local date-time whose generated examples (property tests, the REST fuzzer) are real dates:
 * the check itself accepts every value, and tells the generator to draw from a pattern of dates
 * that exist (days up to 28), rather than from strings that `LocalDateTime` would nearly all refuse.
 */
const generatedAsRealDates = Schema.makeFilter<string>(() => true, {
  arbitraryConstraint: {
    patterns: [{
      source: "^20[2-3][0-9]-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:00$",
      flags: "u"
    }]
  }
})

/** What a series holds by value; each occurrence copies them into its session. */
export const SeriesValues = {
  name: Schema.NullOr(ShortText),
  groupe: Schema.NullOr(ShortText),
  coachId: Schema.NullOr(CoachId),
  /** Minutes. */
  duree: SeriesDuree,
  /** The first wall-clock time of the series, at the club (as a session's `creneau`). */
  start: LocalDateTime.check(generatedAsRealDates),
  rrule: RruleText
}

export class SeriesCreate extends Schema.Class<SeriesCreate>("SeriesCreate")({
  ...SeriesValues,
  athleteIds: BoundedArray(AthleteId)
}) {}

/** One occurrence of a series: the session it is, at the wall-clock time the rule gave it. */
export class Occurrence extends Schema.Class<Occurrence>("Occurrence")({
  sessionId: SessionId,
  /** The time the rule gives it (the session's `creneau`). */
  occurrenceStart: LocalDateTime
}) {}

export class Series extends Schema.Class<Series>("Series")({
  id: SeriesId,
  ...SeriesValues,
  athleteIds: Schema.Array(AthleteId),
  /** Occurrences exist as sessions up to this wall-clock time (inclusive); later ones are created as time passes. */
  expandedUntil: LocalDateTime,
  /** Where a cancellation ended the series: no occurrence at or after this time exists or is created. */
  endsBefore: Schema.NullOr(LocalDateTime),
  /** In time order; an occurrence whose session was deleted is no longer listed, and is not created again. */
  occurrences: Schema.Array(Occurrence)
}) {}
