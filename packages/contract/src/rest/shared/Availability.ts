import { HttpApiMiddleware } from "effect/http-api"
import { Unavailable } from "./Problems.ts"

/** A request the service cannot serve now, because its database is unreachable, answers a 503 problem. */
export class Availability extends HttpApiMiddleware.Service<Availability>()("@club/contract/Availability", {
  error: Unavailable
}) {}
