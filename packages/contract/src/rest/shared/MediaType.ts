import { HttpApiMiddleware } from "effect/http-api"
import { UnsupportedMediaType } from "./Problems.ts"

/**
 * A body sent as anything but `application/json` is bad input: a 415 problem, or the seed's
 * pinned failure body on the endpoints that have one (see `InputFailure`).
 */
export class MediaType extends HttpApiMiddleware.Service<MediaType>()("@club/contract/MediaType", {
  error: UnsupportedMediaType
}) {}
