import { Context } from "effect"

/**
 * The club's schedule (issue 17): where its wall clock is, and how far ahead a series' occurrences
 * exist as sessions.
 */
export interface ScheduleSettings {
  /**
   * The IANA zone of the club (`Europe/Paris`). Sessions keep `creneau` as a wall-clock time there;
   * a series repeats at the same wall-clock time across daylight-saving changes, and overlaps and
   * calendar feeds turn it into instants in this zone.
   */
  readonly timeZone: string
  /** A series' occurrences are created as sessions up to this many weeks ahead, and extended as time passes. */
  readonly horizonWeeks: number
  /** A series whose rule would create more occurrences than this is refused. */
  readonly maxOccurrences: number
  /**
   * The most places (an occurrence's coach, and each of its athletes) a series may hold in all:
   * occurrences × people, counted as `maxOccurrences` counts (`SCHEDULE_MAX_SERIES_PLACES`).
   */
  readonly maxSeriesPlaces?: number | undefined
  /**
   * The most places one transaction of a series writes (each a session membership or coach, and
   * its booking): a create writes its first occurrences within it, and the extension the rest, a
   * batch of as many occurrences as fit per transaction (`SCHEDULE_PLACES_PER_WRITE`), at least
   * one, since an occurrence is written whole. An extension's transaction holds the series against
   * its other writers, so this bounds how long they wait.
   */
  readonly placesPerWrite?: number | undefined
  /**
   * The seed's own session create and update book the session's coach and athletes too, and
   * refuse a double booking (`SCHEDULE_SEED_REFUSES_CONFLICTS`; off when absent, and the seed's
   * endpoints answer as they always did).
   */
  readonly seedRefusesConflicts?: boolean | undefined
}

export const defaultScheduleSettings: ScheduleSettings = {
  timeZone: "UTC",
  horizonWeeks: 26,
  maxOccurrences: 1000,
  maxSeriesPlaces: 200_000,
  placesPerWrite: 200,
  seedRefusesConflicts: false
}

/**
 * How many occurrences of a series of `people` (its coach and athletes) one transaction writes: as
 * many as `placesPerWrite` holds, and at least one.
 */
export const occurrencesPerWrite = (settings: ScheduleSettings, people: number): number =>
  Math.max(1, Math.floor((settings.placesPerWrite ?? defaultScheduleSettings.placesPerWrite!) / Math.max(1, people)))

/** The people an occurrence of a series books: its coach, and each athlete once. */
export const peopleOf = (series: { readonly coachId: unknown; readonly athleteIds: ReadonlyArray<number> }) =>
  new Set(series.athleteIds).size + (series.coachId === null ? 0 : 1)

export const ScheduleSettings = Context.Reference<ScheduleSettings>("@club/core/ScheduleSettings", {
  defaultValue: () => defaultScheduleSettings
})

/**
 * The IANA zone `name` names, as the runtime spells it (`europe/paris` is `Europe/Paris`), or
 * undefined for a name it does not know and for a bare offset (`+02:00`), which has no
 * daylight-saving rules and no place in a calendar's VTIMEZONE.
 */
export const canonicalTimeZone = (name: string): string | undefined => {
  try {
    const zone = new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone
    return /^[A-Za-z]/u.test(zone) ? zone : undefined
  } catch {
    return undefined
  }
}
