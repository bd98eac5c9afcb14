import { extendDueSeries } from "@club/core/calendar"
import { Cause, Duration, Effect, Layer, Schedule } from "effect"

export interface SeriesExtensionOptions {
  /** How long between two rounds. */
  readonly every: Duration.Input
  /** The most series one round extends; a full round is followed by another at once. */
  readonly batch: number
}

/** What the server runs: every hour, at most a hundred series a round. */
export const seriesExtensionDefaults: SeriesExtensionOptions = { every: Duration.hours(1), batch: 100 }

/**
 * The series' periodic extension (issue 17, docs/schedule/series.md "The horizon"): from start,
 * and then at each `every`, the series the horizon has moved past get their occurrences up to it,
 * so that a series nobody reads still has its sessions (and its feed's occurrences). Several
 * instances may run it at once: an occurrence is created once whoever races (the unique index on
 * `(series_id, occurrence_start)`). A failing round (the database away) is logged and the next one
 * tries again; the fiber ends with the server.
 */
export const SeriesExtensionLive = (options: SeriesExtensionOptions = seriesExtensionDefaults) =>
  Layer.effectDiscard(
    Effect.forkScoped(
      Effect.gen(function*() {
        // Rounds until one is not full: a backlog is worked off at once, then the schedule waits.
        while ((yield* extendDueSeries(options.batch)) === options.batch) {
          yield* Effect.yieldNow
        }
      }).pipe(
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logWarning("The series' extension failed; the next round tries again", cause)
        ),
        Effect.repeat(Schedule.spaced(options.every))
      )
    )
  )
