import { Effect } from "effect"
import { HttpRouter, HttpServerError, HttpServerRespondable, HttpServerResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { MethodNotAllowed, NotFound } from "@club/contract/rest"

/** A path the server serves, and the methods it takes there. */
interface ServedPath {
  readonly pattern: RegExp
  readonly methods: Set<string>
}

/** `/session/:id` → a pattern matching `/session/<one segment>`, as the router matches (case-sensitive). */
const patternOf = (template: string) =>
  new RegExp(
    `^${
      template.split("/").map((
        segment
      ) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"))).join("/")
    }$`,
    "u"
  )

/** Every path of the contract, plus the two documents served beside it. */
const servedPaths = (): Array<ServedPath> => {
  const byTemplate = new Map<string, Set<string>>([["/openapi.json", new Set(["GET"])], ["/docs", new Set(["GET"])]])
  HttpApi.reflect(ClubApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const methods = byTemplate.get(endpoint.path) ?? new Set<string>()
      methods.add(endpoint.method)
      byTemplate.set(endpoint.path, methods)
    }
  })
  return Array.from(byTemplate, ([template, methods]) => ({ pattern: patternOf(template), methods }))
}

/** The methods the server takes at `path`; HEAD wherever GET (the router answers HEAD with GET's route). */
const allowedMethods = (paths: ReadonlyArray<ServedPath>, path: string): Array<string> => {
  const allowed = new Set<string>()
  for (const served of paths) {
    if (served.pattern.test(path)) { for (const method of served.methods) allowed.add(method) }
  }
  if (allowed.has("GET")) allowed.add("HEAD")
  return Array.from(allowed).sort()
}

const routeNotFound = (error: unknown): HttpServerError.RouteNotFound | undefined =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound" ? error.reason : undefined

const answer = (paths: ReadonlyArray<ServedPath>, { request }: HttpServerError.RouteNotFound) => {
  const path = request.url.split("?")[0]!
  const allowed = allowedMethods(paths, path)
  if (allowed.length === 0 || allowed.includes(request.method)) {
    return HttpServerRespondable.toResponse(new NotFound({ detail: `No resource at ${path}`, instance: path }))
  }
  const detail = `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`
  return Effect.map(
    HttpServerRespondable.toResponse(new MethodNotAllowed({ detail, instance: path })),
    (response) => HttpServerResponse.setHeader(response, "allow", allowed.join(", "))
  )
}

/**
 * A request no route takes is answered as a problem, like every other failure: 405 with `Allow` when
 * its path is served under other methods (RFC 9110, section 15.5.6), 404 otherwise. The router alone
 * answers both with an empty 404.
 */
export const UnmatchedRequestsLive = HttpRouter.middleware(
  Effect.sync(() => {
    const paths = servedPaths()
    return (httpEffect) =>
      Effect.catch(httpEffect, (error) => {
        const unmatched = routeNotFound(error)
        return unmatched === undefined ? Effect.fail(error) : answer(paths, unmatched)
      })
  }),
  { global: true }
)
