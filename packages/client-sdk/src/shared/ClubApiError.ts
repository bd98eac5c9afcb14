import type { ConnectCodeName } from "./ConnectCodeNames.ts"
import type { ClubApiErrorTag } from "./ClubApiErrorTag.ts"

/** The RFC 9457 problem a REST failure answered with, as the server wrote it. */
export interface Problem {
  readonly type: string
  readonly title: string
  readonly status: number
  readonly detail: string | undefined
  readonly instance: string | undefined
  /** Bad input: each field the server refused, and why. */
  readonly errors: ReadonlyArray<{ readonly field: string; readonly message: string }> | undefined
}

export interface ClubApiErrorOptions {
  readonly tag: ClubApiErrorTag
  readonly message: string
  readonly status?: number | undefined
  readonly code?: ConnectCodeName | undefined
  readonly retryAfter?: number | undefined
  readonly problem?: Problem | undefined
  readonly requestId?: string | undefined
  readonly cause?: unknown
}

/**
 * The one error every Promise of the SDK rejects with. A REST failure carries the HTTP `status`
 * (and the `problem` when the answer was one), a TodoService failure the Connect `code`; `message`
 * is the server's own (the problem's `detail`, the plain-text body or the Connect message)
 * whenever it gave one.
 */
export class ClubApiError extends Error {
  override readonly name = "ClubApiError"
  readonly tag: ClubApiErrorTag
  readonly status: number | undefined
  readonly code: ConnectCodeName | undefined
  /** Seconds to wait before trying again, when the server said (`Retry-After` of a 429 or 503). */
  readonly retryAfter: number | undefined
  readonly problem: Problem | undefined
  /** The server's id of the request (`X-Request-Id`), to quote to its operators. */
  readonly requestId: string | undefined

  constructor(options: ClubApiErrorOptions) {
    super(options.message, { cause: options.cause })
    this.tag = options.tag
    this.status = options.status
    this.code = options.code
    this.retryAfter = options.retryAfter
    this.problem = options.problem
    this.requestId = options.requestId
  }
}

export const isClubApiError = (u: unknown): u is ClubApiError => u instanceof ClubApiError
