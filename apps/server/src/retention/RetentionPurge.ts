import { purgeExpired, RetentionSettings } from "@club/core"
import { Cause, Clock, Effect, Layer } from "effect"
import { AppConfig, retentionBatchSize } from "../AppConfig.ts"

/** The RETENTION_* variables, as core's RetentionSettings (the batch size for the database in use). */
export const RetentionSettingsFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  RetentionSettings,
  AppConfig.useSync((config) => ({
    periodDays: config.retention.periodDays,
    pauseMs: config.retention.pauseMs,
    batchSize: retentionBatchSize(config)
  }))
)

/**
 * One instance's purge: a run every RETENTION_INTERVAL_SECONDS, the first at a random point of the
 * first interval, so that instances started together do not all purge at once. Every
 * instance runs one: the batches pass over the rows another is deleting (SKIP LOCKED), so two
 * instances share the work and no row is deleted twice. A failed run (the database away) is
 * logged and the next one tries again; the server's stop interrupts it between two batches or
 * undoes the batch in flight.
 */
export const purgeLoop = (intervalMs: number) => {
  const run = Effect.gen(function*() {
    const purged = yield* purgeExpired(yield* Clock.currentTimeMillis)
    const rows = Object.values(purged).reduce((sum, kind) => sum + kind.rows, 0)
    if (rows > 0) {
      yield* Effect.logInfo("The retention purge deleted what was past its period").pipe(
        Effect.annotateLogs({ purged })
      )
    }
  }).pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.logWarning("The retention purge failed; the next run tries again", cause)
    )
  )
  return Effect.sleep(Math.floor(Math.random() * intervalMs)).pipe(
    Effect.andThen(Effect.forever(Effect.andThen(run, Effect.sleep(intervalMs))))
  )
}

/** The purge of what is past its retention (issue 43, docs/privacy.md), forked for as long as the server runs. */
export const RetentionPurgeLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const { retention } = yield* AppConfig
    yield* Effect.forkScoped(purgeLoop(retention.intervalSeconds * 1000))
  })
)
