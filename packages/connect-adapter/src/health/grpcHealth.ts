import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect"
import { Health, HealthCheckResponse_ServingStatus as Status } from "../gen/grpc/health/v1/health_pb.ts"

export { Health }

export interface GrpcHealthOptions {
  /**
   * Watch streams open at once, across all clients; one more is refused with `resource_exhausted`
   * (clients retry a Watch with backoff). Each one holds an HTTP/2 stream or a connection that the
   * listener never evicts, since it is being answered. 100 by default.
   */
  readonly maxWatches?: number | undefined
  /** How often readiness is checked while at least one Watch is open; 5 s by default. */
  readonly watchIntervalMs?: number | undefined
}

export const defaultMaxWatches = 100
export const defaultWatchIntervalMs = 5_000

interface Watch {
  readonly known: boolean
  /** A status not yet sent; a newer one replaces it (a slow reader gets the latest, not a backlog). */
  pending: Status | undefined
  /** Wakes the stream waiting for news: a status, the client gone, or the server draining. */
  wake: (() => void) | undefined
}

/**
 * The status of `services` for gRPC health checking (grpc/health/v1/health.proto): SERVING while
 * `checkReadiness` answers true, NOT_SERVING otherwise, and NOT_SERVING for good once the server
 * drains. One readiness check runs at a time, whoever asks (Check, List, the watches' poll): a
 * flood of Check calls costs the database one query at a time.
 *
 * Watch streams are bounded: at most `maxWatches` at once; all of them share one timer, which runs
 * only while a watch is open; a stream ends when its client goes away (its signal), and each one
 * ends when the server drains (NOT_SERVING, then `unavailable`), so that shutdown does not wait
 * for them.
 */
export class GrpcHealth {
  private readonly watches = new Set<Watch>()
  private readonly maxWatches: number
  private readonly watchIntervalMs: number
  private readonly known: ReadonlySet<string>
  private ready: boolean | undefined
  private inFlight: Promise<boolean> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private polling = false
  private draining = false

  constructor(
    private readonly checkReadiness: () => Promise<boolean>,
    /** The names a client may ask about: "" (the whole server) and each service served. */
    readonly services: ReadonlyArray<string>,
    options: GrpcHealthOptions = {}
  ) {
    this.known = new Set(services)
    this.maxWatches = options.maxWatches ?? defaultMaxWatches
    this.watchIntervalMs = options.watchIntervalMs ?? defaultWatchIntervalMs
  }

  /** Watch streams open now. */
  get watching(): number {
    return this.watches.size
  }

  /** Whether the shared poll timer is armed or running (only while a watch is open). */
  get pollingReadiness(): boolean {
    return this.timer !== undefined || this.polling
  }

  /** The server is shutting down: every status is NOT_SERVING from now on, and every watch ends. */
  drain(): void {
    if (this.draining) return
    this.draining = true
    clearTimeout(this.timer)
    this.timer = undefined
    for (const watch of this.watches) watch.wake?.()
  }

  /** The current status of the server, from a readiness check (shared with any check running). */
  async status(): Promise<Status> {
    if (this.draining) return Status.NOT_SERVING
    return this.statusOf(await this.refresh())
  }

  private statusOf(ready: boolean): Status {
    return ready && !this.draining ? Status.SERVING : Status.NOT_SERVING
  }

  /** One check at a time: whoever asks while one runs gets its answer. Every answer goes to the watches. */
  private refresh(): Promise<boolean> {
    this.inFlight ??= this.checkReadiness().catch(() => false).then((ready) => {
      this.inFlight = undefined
      this.publish(ready)
      return ready
    })
    return this.inFlight
  }

  private publish(ready: boolean) {
    if (ready === this.ready) return
    this.ready = ready
    const status = this.statusOf(ready)
    for (const watch of this.watches) {
      if (!watch.known) continue
      watch.pending = status
      watch.wake?.()
    }
  }

  /** Arms the one shared timer, when a watch is open and none is armed or running. */
  private schedule() {
    if (this.timer !== undefined || this.polling || this.draining || this.watches.size === 0) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.polling = true
      void this.refresh().finally(() => {
        this.polling = false
        this.schedule()
      })
    }, this.watchIntervalMs)
    // Never what keeps the process alive.
    this.timer.unref?.()
  }

  private unwatch(watch: Watch) {
    this.watches.delete(watch)
    if (this.watches.size === 0) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
  }

  /**
   * The status of `service` now, then each change, until the client goes away (`signal`) or the
   * server drains. An unknown service is SERVICE_UNKNOWN and the stream stays open, as the
   * protocol says (the set of services never changes here, so nothing follows).
   */
  async *watch(service: string, signal: AbortSignal): AsyncGenerator<{ status: Status }> {
    if (this.watches.size >= this.maxWatches) {
      throw new ConnectError(
        `Too many health watches are open (${this.maxWatches}); retry later`,
        Code.ResourceExhausted
      )
    }
    const watch: Watch = { known: this.known.has(service), pending: undefined, wake: undefined }
    this.watches.add(watch)
    const onAbort = () => watch.wake?.()
    signal.addEventListener("abort", onAbort)
    try {
      let sent: Status
      if (!watch.known) sent = Status.SERVICE_UNKNOWN
      else if (this.draining) sent = Status.NOT_SERVING
      // The last answer is fresh while the poll runs for other watches; otherwise ask now.
      else sent = this.statusOf(this.ready !== undefined && this.pollingReadiness ? this.ready : await this.refresh())
      watch.pending = undefined
      this.schedule()
      yield { status: sent }
      for (;;) {
        if (signal.aborted) return
        if (this.draining) {
          if (watch.known && sent !== Status.NOT_SERVING) yield { status: Status.NOT_SERVING }
          throw new ConnectError("The server is shutting down", Code.Unavailable)
        }
        const next = watch.pending
        watch.pending = undefined
        if (next !== undefined && next !== sent) {
          sent = next
          yield { status: next }
          continue
        }
        await new Promise<void>((resolve) => (watch.wake = resolve))
        watch.wake = undefined
      }
    } finally {
      signal.removeEventListener("abort", onAbort)
      this.unwatch(watch)
    }
  }

  /** Registers grpc.health.v1.Health: Check, List and Watch; none needs a caller's credentials (docs/DECISIONS.md). */
  routes(router: ConnectRouter): void {
    router.service(Health, {
      check: async (request) => {
        if (!this.known.has(request.service)) {
          throw new ConnectError(`unknown service ${request.service}`, Code.NotFound)
        }
        return { status: await this.status() }
      },
      list: async () => {
        const status = await this.status()
        return { statuses: Object.fromEntries(this.services.map((service) => [service, { status }])) }
      },
      watch: (request, context) => this.watch(request.service, context.signal)
    })
  }
}
