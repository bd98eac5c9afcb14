import { extendDueSeries, SeriesExtensionWake } from "@club/core/calendar"
import { Cause, Duration, Effect, Layer, Queue } from "effect"

export interface SeriesExtensionOptions {
  /** How long between two rounds. */
  readonly every: Duration.Input
  /** The most series one round extends; a full round is followed by another at once. */
  readonly batch: number
  /**
   * How long before another round when only series that other writers hold are left: each holds
   * one for a short transaction, so they are tried again soon rather than at the next `every`.
   */
  readonly heldRetry?: Duration.Input
}

/** What the server runs: every hour, at most a hundred series a round. */
export const seriesExtensionDefaults: SeriesExtensionOptions = {
  every: Duration.hours(1),
  batch: 100,
  heldRetry: Duration.millis(200)
}

/**
 * The wake of the series' extension: a create that leaves occurrences over asks for a round now.
 * Asks made while one is pending are one (a queue of one that drops the rest).
 */
export const SeriesExtensionWakeLive = Layer.effect(
  SeriesExtensionWake,
  Effect.map(Queue.dropping<void>(1), (queue) => ({
    wake: Effect.asVoid(Queue.offer(queue, undefined)),
    woken: Queue.take(queue)
  }))
)

/**
 * The series' periodic extension (issue 17, docs/schedule/series.md "The horizon"): from start,
 * at each `every`, and when a create asks (`SeriesExtensionWake`), the series the horizon has
 * moved past get their occurrences up to it, one transaction's worth per series and round, rounds
 * following each other while work is left, so that a series nobody reads still has its sessions
 * (and its feed's occurrences). Several instances may run it at once: an occurrence is created
 * once whoever races (the unique index on `(series_id, occurrence_start)`), and a series another
 * writer holds is skipped and tried again shortly, never waited for (issue 37). A failing round
 * (the database away) is logged and the next one tries again; the fiber ends with the server.
 */
export const SeriesExtensionLive = (options: SeriesExtensionOptions = seriesExtensionDefaults) =>
  Layer.effectDiscard(
    Effect.forkScoped(
      Effect.gen(function*() {
        const { woken } = yield* SeriesExtensionWake
        const rounds = Effect.gen(function*() {
          // Rounds until no work is left: a backlog is worked off at once, each transaction short,
          // with the other requests served between them.
          while (true) {
            const left = yield* extendDueSeries(options.batch)
            if (left === "done") break
            yield* left === "more" ? Effect.yieldNow : Effect.sleep(options.heldRetry ?? Duration.millis(200))
          }
        }).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.failCause(cause)
              : Effect.logWarning("The series' extension failed; the next round tries again", cause)
          )
        )
        while (true) {
          yield* rounds
          yield* Effect.raceFirst(Effect.sleep(options.every), woken)
        }
      })
    )
  )
