import type { Schema } from "effect"
import type { HttpClientError } from "effect/http"
import type { RestError } from "../rest/RestError.ts"
import type { ConnectCodeTag } from "./ConnectCodeNames.ts"

/** The `_tag` of every error the REST contract declares (`NotFound`, `NotFoundEmpty`, `ActivityFailed`, ...). */
export type ContractErrorTag = Exclude<RestError, HttpClientError.HttpClientError | Schema.SchemaError>["_tag"]

/** A Connect code by its enum name (`InvalidArgument`, `Unauthenticated`, ...). */
export type ConnectErrorTag = ConnectCodeTag

export type ClubApiErrorTag =
  | ContractErrorTag
  | ConnectErrorTag
  /** The token's lifetime is over (checked locally before the call, or answered by the server). */
  | "TokenExpired"
  /** The arguments do not satisfy the contract's schemas; nothing was sent. */
  | "InvalidInput"
  /** The server answered something the contract does not describe (status or body). */
  | "UnexpectedResponse"
  /** No answer: the server could not be reached, or the connection broke. */
  | "NetworkError"
  /** The call took longer than its `timeoutMs` (retries included) and was abandoned. */
  | "Timeout"
  /** The call's `signal` was aborted and the call abandoned. */
  | "Aborted"
  /** A bug, in the SDK or below it. */
  | "Defect"
