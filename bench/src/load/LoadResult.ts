/** One measured run of one scenario against one server, as the load generator reports it. */
export interface LoadResult {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly requests: number
  /** Answers with another status than the scenario expects, connection errors and timeouts. */
  readonly failures: number
  readonly statusCodes: Readonly<Record<string, number>>
  /** CPU time (user + system) of the load generator process itself, ms. */
  readonly loadgenCpuMillis: number
}

export interface LoadOptions {
  readonly url: string
  readonly scenario: string
  readonly connections: number
  readonly durationSeconds: number
}

/** A measured run and what it cost the server process. */
export interface Measurement extends LoadResult {
  /** CPU time (user + system) of the server process per answered request, in microseconds. */
  readonly serverCpuMicrosPerRequest: number
  /** CPU time of all PostgreSQL backends per answered request, in microseconds. */
  readonly postgresCpuMicrosPerRequest: number
  /** Share of the machine's capacity PostgreSQL used during the run: near 100, the database was the bottleneck. */
  readonly postgresCpuPercent: number
  /**
   * Share of the machine used meanwhile by processes that are not part of the measurement
   * (anything but the server, PostgreSQL and the load generator): above a few percent, the run
   * was disturbed.
   */
  readonly otherCpuPercent: number
}
