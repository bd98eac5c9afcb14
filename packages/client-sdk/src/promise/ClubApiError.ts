import type { ConnectCodeName } from "../todo/ConnectCodeName.ts"
import type { ClubApiErrorTag } from "./ClubApiErrorTag.ts"

export interface ClubApiErrorOptions {
  readonly tag: ClubApiErrorTag
  readonly message: string
  readonly status?: number | undefined
  readonly code?: ConnectCodeName | undefined
  readonly cause?: unknown
}

/**
 * The one error every Promise of the SDK rejects with. A REST failure carries the HTTP `status`,
 * a TodoService failure the Connect `code`; `message` is the server's own (the problem's
 * `detail` or the plain-text body) whenever it gave one.
 */
export class ClubApiError extends Error {
  override readonly name = "ClubApiError"
  readonly tag: ClubApiErrorTag
  readonly status: number | undefined
  readonly code: ConnectCodeName | undefined

  constructor(options: ClubApiErrorOptions) {
    super(options.message, { cause: options.cause })
    this.tag = options.tag
    this.status = options.status
    this.code = options.code
  }
}

export const isClubApiError = (u: unknown): u is ClubApiError => u instanceof ClubApiError
