import { HttpRouter, HttpServerResponse } from "effect/http"

/** What `GET /` answers: where a newcomer (or a probe that lands on the root) goes next. */
export const serviceIndex = {
  name: "Club Training Service",
  docs: "/docs",
  openapi: "/openapi.json",
  health: { live: "/health/live", ready: "/health/ready" },
  login: "/auth/login"
} as const

/**
 * `GET /` without a token: the service's name and where to go, instead of the seed's `GET /{id}`
 * reading an empty id. Cacheable: it changes only with a release.
 */
export const ServiceIndexLive = HttpRouter.add(
  "GET",
  "/",
  HttpServerResponse.jsonUnsafe(serviceIndex, { headers: { "cache-control": "public, max-age=3600" } })
)
