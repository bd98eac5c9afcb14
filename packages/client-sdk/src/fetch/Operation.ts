/**
 * One REST operation of the contract as the light client needs it, generated from the contract's
 * OpenAPI document (scripts/generate-operations.mjs → operations.gen.ts).
 */
export interface Operation {
  /** HTTP method. */
  readonly m: string
  /** Path template, `:name` for a path parameter (`/session/:id`). */
  readonly p: string
  /** 1 when the call takes a request argument (path or query parameters, or a body). */
  readonly r: 0 | 1
  /** 1 when the call sends the bearer token. */
  readonly a: 0 | 1
  /** The success answers: each status and body kind. */
  readonly s: ReadonlyArray<readonly [status: number, body: BodyKind]>
  /** The declared failures: status, tag, body kind (and for text, the prefix the message follows). */
  readonly e: ReadonlyArray<readonly [status: number, tag: string, body: BodyKind, prefix?: string]>
}

/** `j` JSON, `t` plain text, `n` no content, `p` a problem, `l` the seed's activity create (text + `Location`). */
export type BodyKind = "j" | "t" | "n" | "p" | "l"
