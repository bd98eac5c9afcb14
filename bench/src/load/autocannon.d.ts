// The part of autocannon 9's programmatic API the load generator and the tools use (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    readonly average: number
    readonly p50: number
    readonly p99: number
    readonly total: number
  }
  interface Result {
    readonly duration: number
    readonly errors: number
    readonly timeouts: number
    readonly latency: Histogram
    readonly requests: Histogram
    readonly non2xx: number
    readonly statusCodeStats?: Record<string, { readonly count: number | string }>
  }
  interface Options {
    readonly url: string
    readonly connections?: number
    readonly duration?: number
    readonly timeout?: number
    /** Stop after this many requests instead of after `duration`. */
    readonly amount?: number
    readonly method?: string
    readonly headers?: Readonly<Record<string, string>>
    readonly body?: string
    readonly requests?: ReadonlyArray<
      { readonly setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }
    >
  }
  const autocannon: (options: Options) => Promise<Result>
  export default autocannon
}
