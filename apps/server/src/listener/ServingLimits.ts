/**
 * How much one server process admits at once and how long it waits for a client: the bounds that
 * keep floods of idle or stalled connections and streams from exhausting its memory or file
 * descriptors, while a client that sends its request is still answered (docs/RELIABILITY.md).
 */
export interface ServingLimits {
  /** Open connections (HTTP/1.1 and HTTP/2). At the limit a new one replaces the oldest idle or stalled one. */
  readonly maxConnections: number
  /** HTTP/2 streams one session may have open, advertised to the client (SETTINGS_MAX_CONCURRENT_STREAMS). */
  readonly maxStreamsPerSession: number
  /** HTTP/2 streams open across all sessions. At the limit a new one replaces the oldest stalled one. */
  readonly maxStreams: number
  /** A connection without a request (HTTP/1.1 keep-alive, an HTTP/2 session without streams) is closed after this. */
  readonly idleTimeoutMs: number
  /** The first bytes of a connection, and each request's headers, must arrive within this. */
  readonly headersTimeoutMs: number
  /** Each request, body included, must arrive within this. */
  readonly requestTimeoutMs: number
}

/**
 * The idle timeout outlasts the usual 60 s of load balancers, so that a balancer never reuses a
 * connection the server is closing; the request timeout gives a 1 MiB body time on a slow mobile
 * link; each stalled HTTP/2 stream costs tens of KiB, so streams are bounded across sessions too.
 */
export const defaultServingLimits: ServingLimits = {
  maxConnections: 1_000,
  maxStreamsPerSession: 100,
  maxStreams: 1_000,
  idleTimeoutMs: 65_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000
}
