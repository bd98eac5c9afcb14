import { HttpApiMiddleware } from "effect/http-api"
import { ContentTooLarge } from "./Problems.ts"

/** A request body over the server's limit (1 MiB) answers a 413 problem. */
export class BodyLimit extends HttpApiMiddleware.Service<BodyLimit>()("@club/contract/BodyLimit", {
  error: ContentTooLarge
}) {}
