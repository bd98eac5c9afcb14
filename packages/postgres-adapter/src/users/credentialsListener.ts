import { traced } from "@club/core"
import { randomUUID } from "node:crypto"
import type { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Queue, Schedule } from "effect"
import type { CredentialsMemory } from "./credentialsMemory.ts"

/** Every write that can change some user's credentials notifies this channel when it commits. */
export const credentialsChannel = "club_credentials"

/** How long LISTEN may take to be confirmed (our own notification back); past it, try again. */
const confirmationTimeout = Duration.seconds(5)

/** Before trying again after a working LISTEN dropped: no busy loop against a database that keeps cutting. */
const firstRetryDelay = Duration.millis(100)

/** While LISTEN cannot be put back: 100 ms, doubling, at most 5 s between attempts. */
const retrySchedule = Schedule.min([Schedule.exponential(firstRetryDelay), Schedule.spaced("5 seconds")])

/**
 * LISTEN on a connection of the pool (held until the scope closes), then, to know that it is in
 * place, a notification with a payload no one else sends, awaited on it. Every notification that
 * arrives meanwhile clears the cache too (it is still off). Bounded as a whole: the notification
 * is sent on another connection of the pool, which a busy pool may be slow to give.
 */
const startListening = traced("CredentialsCache.startListening")(
  function*(pg: PgClient.PgClient, memory: CredentialsMemory) {
    const notifications = yield* pg.listen(credentialsChannel)
    const ownPayload = `listening ${randomUUID()}`
    yield* pg.notify(credentialsChannel, ownPayload)
    yield* Queue.take(notifications).pipe(
      Effect.tap(() => Effect.sync(() => memory.invalidate())),
      Effect.repeat({ until: (notification) => notification.payload === ownPayload })
    )
    return notifications
  },
  Effect.timeout(confirmationTimeout)
)

/** The messages of an error and of its causes, on one line. */
const describe = (error: unknown): string => {
  const messages: Array<string> = []
  for (let e: unknown = error; e instanceof Error && messages.length < 4; e = e.cause) {
    if (e.message !== "" && !messages.includes(e.message)) messages.push(e.message)
  }
  return messages.length === 0 ? String(error) : messages.join(": ")
}

/**
 * Keeps one LISTEN on `club_credentials` for this process, for as long as the fiber runs. Each
 * notification (another instance's write, or this one's) clears the cache. The cache is on only
 * from the moment LISTEN is confirmed; when the connection fails (database outage, connection
 * cut, server restart), it is turned off and emptied at once, and LISTEN is put back with a
 * bounded backoff. One warning per outage, one line when it is back.
 */
export const listenForCredentialChanges = (pg: PgClient.PgClient, memory: CredentialsMemory) => {
  let down = false
  const reportDown = (error: unknown) =>
    Effect.suspend(() => {
      if (down) return Effect.void
      down = true
      return Effect.logWarning(
        "Not listening for credential changes: credentials are read from the database on every request until it is back"
      ).pipe(Effect.annotateLogs({ reason: describe(error) }))
    })
  const reportBack = Effect.suspend(() => {
    if (!down) return Effect.void
    down = false
    return Effect.logInfo("Listening for credential changes again: the credentials cache is back on")
  })

  /** Fails when LISTEN could not be put in place; succeeds with what ended it once it was. */
  const session = Effect.scoped(Effect.gen(function*() {
    const notifications = yield* startListening(pg, memory)
    memory.enable()
    yield* reportBack
    const clearOnEach = Effect.forever(
      Effect.flatMap(Queue.take(notifications), () => Effect.sync(() => memory.invalidate()))
    )
    const ended = yield* Effect.flip(clearOnEach)
    memory.disable()
    return ended
  })).pipe(Effect.ensuring(Effect.sync(() => memory.disable())))

  return session.pipe(
    Effect.tapError(reportDown),
    Effect.retry(retrySchedule),
    Effect.flatMap(reportDown),
    Effect.andThen(Effect.sleep(firstRetryDelay)),
    Effect.forever
  )
}
