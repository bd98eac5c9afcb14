import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { onEachDatabase } from "./support/onEachDatabase.ts"

/**
 * A long statement must not hold the server's event loop (issue 37): on a PostgreSQL server it runs
 * in another process; the embedded database runs it in a worker thread. The bound is generous (the
 * machine is shared); the figures are the bench's.
 */
const statementMs = 600
const delayBoundMs = 200
const tickMs = 5

/** The longest gap between the ticks of a short interval timer, from `start` to `stop`: how long the event loop was held. */
const loopGaps = () => {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, tickMs)
  return {
    stop: Effect.gen(function*() {
      // A tick held back by a blocked loop runs once the loop is free: let it run before reading.
      yield* Effect.sleep(`${tickMs * 4} millis`)
      clearInterval(timer)
      return longest
    })
  }
}

onEachDatabase("The event loop during a long statement", (it) => {
  it.effect("stays free while the database works", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const gaps = loopGaps()
      const started = performance.now()
      yield* sql`SELECT pg_sleep(${statementMs / 1000})`
      const elapsedMs = performance.now() - started
      const longestGapMs = yield* gaps.stop
      expect(elapsedMs).toBeGreaterThanOrEqual(statementMs - tickMs)
      expect(longestGapMs, `the event loop's longest gap while the statement ran ${Math.round(elapsedMs)} ms`)
        .toBeLessThan(delayBoundMs)
    }))
})
