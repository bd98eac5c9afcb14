export interface Answer {
  readonly status: number
  /** JSON for objects and arrays, plain text for strings, nothing for undefined. */
  readonly body?: unknown
}

export const answer = (status: number, body?: unknown): Answer => ({ status, body })
