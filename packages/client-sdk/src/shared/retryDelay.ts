import type { RetryOptions } from "./ClientOptions.ts"

export interface RetryPolicy {
  readonly maxAttempts: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
}

export const retryPolicy = (options: RetryOptions | false | undefined): RetryPolicy =>
  options === false
    ? { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 }
    : {
      maxAttempts: options?.maxAttempts ?? 3,
      baseDelayMs: options?.baseDelayMs ?? 200,
      maxDelayMs: options?.maxDelayMs ?? 5_000
    }

/** Statuses that say "not now": the request was not served and may be sent again. */
export const retryableStatuses: ReadonlySet<number> = new Set([429, 502, 503, 504])

/** `Retry-After` as milliseconds: delay-seconds, or an HTTP date (RFC 9110, section 10.2.3). */
export const retryAfterMs = (header: string | null | undefined, now: number): number | undefined => {
  if (header === null || header === undefined || header.trim() === "") return undefined
  const text = header.trim()
  if (/^\d+$/u.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * How long to wait before attempt `attempt + 1` (the first retry follows attempt 1): the server's
 * `Retry-After` when it gave one, else a doubling delay with full jitter, so that clients failed
 * together do not come back together. Undefined: no more attempts.
 */
export const delayBeforeRetry = (
  policy: RetryPolicy,
  attempt: number,
  retryAfter: number | undefined
): number | undefined => {
  if (attempt >= policy.maxAttempts) return undefined
  if (retryAfter !== undefined) return retryAfter <= policy.maxDelayMs ? retryAfter : undefined
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
}
