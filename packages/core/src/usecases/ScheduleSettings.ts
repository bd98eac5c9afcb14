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
  seedRefusesConflicts: false
}

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
