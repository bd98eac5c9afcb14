import { Effect } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerRespondable, HttpServerResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { MethodNotAllowed, NotFound } from "@club/contract/rest"

/** A path the server serves, and the methods it takes there. */
interface ServedPath {
  readonly pattern: RegExp
  readonly methods: Set<string>
}

/** A parameter that holds a record's id (`:id`, `:sessionId`): never a name. */
const isIdParameter = (segment: string) => segment === ":id" || /^:[a-z]+Id$/u.test(segment)

/** Any one segment, as the router matches a parameter. */
const anySegment = "[^/]+"
/** A segment where an id goes: anything but a name (a segment that starts with a letter). */
const idSegment = "(?![A-Za-z])[^/]+"
/** A name: `all`, `sessions`, `favicon.ico`. */
const nameSegment = "[A-Za-z][^/]*"

const escaped = (segment: string) => segment.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")

/** The regular expression of a path template, `parameter` deciding what each parameter matches. */
const sourceOf = (template: string, parameter: (segment: string, index: number) => string) =>
  template.split("/").map((segment, index) => segment.startsWith(":") ? parameter(segment, index) : escaped(segment))
    .join("/")

/** `/session/:id` → `/session/<one segment, not a name>`, as the server takes it (case-sensitive). */
const patternOf = (template: string) =>
  new RegExp(`^${sourceOf(template, (segment) => isIdParameter(segment) ? idSegment : anySegment)}$`, "u")

/**
 * The paths the router would give to a route only by reading a name as its id (`GET /sessions` as
 * the seed's `GET /{id}`, `GET /athletes/all` as `GET /athletes/{id}`): one expression, tested once
 * per request.
 */
const nameAsIdPattern = (templates: ReadonlyArray<string>) => {
  const variants = templates.flatMap((template) =>
    template.split("/").flatMap((segment, at) =>
      isIdParameter(segment)
        ? [sourceOf(template, (other, index) => index === at ? nameSegment : anySegment)]
        : []
    )
  )
  return new RegExp(`^(?:${variants.join("|")})$`, "u")
}

/** Every path template of the contract, with its methods, plus the documents served beside it. */
const servedTemplates = (): Map<string, Set<string>> => {
  const byTemplate = new Map<string, Set<string>>([
    ["/", new Set(["GET"])],
    ["/openapi.json", new Set(["GET"])],
    ["/docs", new Set(["GET"])]
  ])
  HttpApi.reflect(ClubApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const methods = byTemplate.get(endpoint.path) ?? new Set<string>()
      methods.add(endpoint.method)
      byTemplate.set(endpoint.path, methods)
    }
  })
  return byTemplate
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

const answer = (paths: ReadonlyArray<ServedPath>, request: HttpServerRequest.HttpServerRequest) => {
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
 * answers both with an empty 404. A name where a route has an id (`GET /sessions`, `/favicon.ico`)
 * is no route either, answered so before any route's authentication or decoding; an id written
 * wrong but not a name (`0`, `-1`, `07`) stays that route's bad input, 400 naming it.
 */
export const UnmatchedRequestsLive = HttpRouter.middleware(
  Effect.sync(() => {
    const templates = servedTemplates()
    const paths = Array.from(templates, ([template, methods]) => ({ pattern: patternOf(template), methods }))
    const nameAsId = nameAsIdPattern(Array.from(templates.keys()))
    // A path with no parameter (`/session/create`) is served as is under its own methods, known
    // without testing it against every template; only the others are matched one by one.
    const fixedPaths = new Map(Array.from(templates).filter(([template]) => !template.includes("/:")))
    const servedAsIs = (request: HttpServerRequest.HttpServerRequest, path: string) => {
      if (fixedPaths.get(path)?.has(request.method) === true) return true
      return allowedMethods(paths, path).includes(request.method)
    }
    return (httpEffect) =>
      Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
        const path = request.url.split("?")[0]!
        if (nameAsId.test(path) && !servedAsIs(request, path)) return answer(paths, request)
        return Effect.catch(httpEffect, (error) => {
          const unmatched = routeNotFound(error)
          return unmatched === undefined ? Effect.fail(error) : answer(paths, unmatched.request)
        })
      })
  }),
  { global: true }
)
