import { Duration, Effect } from "effect"
import type { Connections } from "./Connections.ts"
import type { Http2Sessions } from "./Http2Sessions.ts"

/**
 * On shutdown, how long an idle kept-alive HTTP/1.1 connection may still send a request: it is
 * answered as usual, with `Connection: close`. Then the idle connections are closed. A client
 * that sends on a kept-alive connection just as the server closes it is not answered but sees a
 * clean end of the connection (never a reset), and knows that its request was not processed.
 */
export const defaultShutdownGracePeriod = Duration.seconds(2)

/**
 * The listener's shutdown, and the state the serving parts read from it: whether it has begun,
 * whether kept-alive HTTP/1.1 connections have had their grace period, and how many requests are
 * being served.
 */
export class Drain {
  /** Shutdown has begun: every request still served is the last of its HTTP/1.1 connection. */
  closing = false
  /** Kept-alive HTTP/1.1 connections have had their grace period: each is closed once idle. */
  graceOver = false
  inFlight = 0
  private readonly draining = new AbortController()
  /** Aborted as shutdown begins (see `ConnectFront`). */
  readonly signal: AbortSignal = this.draining.signal

  constructor(private readonly connections: Connections, private readonly sessions: Http2Sessions) {}

  private endGracePeriod(): void {
    this.graceOver = true
    for (const connection of this.connections.values()) {
      if (connection.protocol !== "h2c" && connection.exchanges.size === 0) {
        this.connections.closeGently(connection.socket)
      }
    }
  }

  /**
   * No new connections (`stopAccepting`); every request received is answered; kept-alive HTTP/1.1
   * connections get `gracePeriod` to send one more request (answered with `Connection: close`),
   * then the idle ones are closed; HTTP/2 sessions get GOAWAY and finish their open streams. Done
   * when every connection is closed.
   */
  private drain(gracePeriod: Duration.Duration, stopAccepting: () => void): Effect.Effect<void> {
    return Effect.callback<void>((resume) => {
      this.closing = true
      this.draining.abort()
      // Connections the kernel has completed but Node has not accepted yet would be reset by closing
      // the listener now: a turn of the event loop accepts them first (and they are served as above).
      setImmediate(() => setImmediate(stopAccepting))
      // GOAWAY: no new streams, open ones finish.
      for (const session of this.sessions.all()) session.close()
      const grace = setTimeout(() => this.endGracePeriod(), Duration.toMillis(gracePeriod))
      const done = () => {
        clearTimeout(grace)
        this.connections.onAllClosed = undefined
        resume(Effect.void)
      }
      if (this.connections.size === 0) return done()
      this.connections.onAllClosed = done
      return Effect.sync(() => {
        clearTimeout(grace)
        this.connections.onAllClosed = undefined
      })
    })
  }

  /** The drain, within `timeout`; then whatever is still open is cut (`cut`). */
  shutdown(options: {
    readonly gracePeriod: Duration.Duration
    readonly timeout: Duration.Input
    readonly stopAccepting: () => void
    readonly cut: Effect.Effect<void>
  }): Effect.Effect<void> {
    return Effect.suspend(() =>
      Effect.logInfo(
        `Shutting down: no new connections; waiting for ${this.inFlight} running request(s); ${this.connections.size} open connection(s) closed within ${
          Duration.format(options.gracePeriod)
        } once idle`
      )
    ).pipe(
      Effect.andThen(this.drain(options.gracePeriod, options.stopAccepting)),
      Effect.timeoutOrElse({
        duration: options.timeout,
        orElse: () =>
          Effect.logWarning(
            `Shutdown: ${this.inFlight} request(s) still running and ${this.connections.size} connection(s) are cut`
          )
      }),
      Effect.ensuring(options.cut)
    )
  }
}
