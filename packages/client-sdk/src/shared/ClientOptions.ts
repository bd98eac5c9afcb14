import type { TodoProtocol } from "../todo/TodoProtocol.ts"

/** Called around every HTTP exchange the client makes (REST and TodoService), in order. */
export interface ClientHooks {
  /** Before sending; may change the request's headers (e.g. add one). */
  readonly onRequest?: ((request: Request) => void | Promise<void>) | undefined
  /** After the answer's status and headers arrived, before its body is read. */
  readonly onResponse?: ((response: Response, request: Request) => void | Promise<void>) | undefined
}

/**
 * Retries of calls that may be repeated safely: reads and idempotent writes (GET, HEAD, PUT, DELETE,
 * `POST /athletes/all`, `ListTasks`, `DeleteTask`), and any write sent with an idempotency key.
 * They are retried when no answer came (a network failure), on 429 and 503 (after the server's
 * `Retry-After` when it gives one) and on 502 and 504, with a doubling, jittered delay otherwise.
 */
export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 3. */
  readonly maxAttempts?: number | undefined
  /** The first delay before jitter; doubled for each further attempt. Default 200 ms. */
  readonly baseDelayMs?: number | undefined
  /** No retry waits longer: a `Retry-After` beyond it ends the retries. Default 5,000 ms. */
  readonly maxDelayMs?: number | undefined
}

/** Settings of a whole client: where the server is, and how every call is made. */
export interface ClientOptions {
  /** The server, e.g. `https://club.example` (paths are appended to it). */
  readonly baseUrl: string
  /** The `fetch` to use (a test double, an instrumented one, undici's); `globalThis.fetch` by default. */
  readonly fetch?: typeof globalThis.fetch | undefined
  /** The time each call may take, retries included, unless the call gives its own; none by default. */
  readonly timeoutMs?: number | undefined
  /** Headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly hooks?: ClientHooks | undefined
  /** See `RetryOptions`; `false` turns retries off. On by default. */
  readonly retry?: RetryOptions | false | undefined
  /**
   * Send the current span as `traceparent` and `b3` headers (Effect's tracing). Off by default: a
   * browser would need the server to allow those headers too, and most callers have no tracer.
   */
  readonly tracePropagation?: boolean | undefined
  /** How TodoService is reached: Connect JSON (default), Connect binary, or gRPC-Web. */
  readonly todoProtocol?: TodoProtocol | undefined
}

/** Settings of one call, given as the last argument of any call of the Promise face. */
export interface CallOptions {
  /** Aborting it abandons the call (its request is cancelled); the Promise rejects with tag `Aborted`. */
  readonly signal?: AbortSignal | undefined
  /** The time this call may take, retries included; it then rejects with tag `Timeout`. */
  readonly timeoutMs?: number | undefined
  /** Headers for this call, over the client's. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /**
   * Sent as `Idempotency-Key`: the server then answers a repeat of this write with the first answer
   * instead of doing it twice, and the client may retry it. Use a new random value per operation.
   */
  readonly idempotencyKey?: string | undefined
}
