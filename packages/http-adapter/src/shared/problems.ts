import type { DomainError } from "@club/core"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { Conflict, Forbidden, InvalidRequest, NotFound, TooManyRequests, Unauthorized } from "@club/contract/rest"

/** The problem each error category answers with. */
export type ProblemFor<E extends DomainError> = E["category"] extends infer C ? C extends "NotFound" ? NotFound
  : C extends "Invalid" ? InvalidRequest
  : C extends "Conflict" ? Conflict
  : C extends "Forbidden" ? Forbidden
  : C extends "Unauthenticated" ? Unauthorized
  : C extends "RateLimited" ? TooManyRequests
  : never
  : never

/** The request path, as the problem's `instance`. */
export const requestPath = Effect.map(
  Effect.service(HttpServerRequest.HttpServerRequest),
  (request) => request.url.split("?")[0]!
)

const problemOf = (error: DomainError, detail: string, instance: string) => {
  const fields = { detail, instance }
  switch (error.category) {
    case "NotFound":
      return new NotFound(fields)
    case "Invalid":
      return new InvalidRequest(fields)
    case "Conflict":
      return new Conflict(fields)
    case "Forbidden":
      return new Forbidden(fields)
    case "Unauthenticated":
      return new Unauthorized(fields)
    case "RateLimited":
      return new TooManyRequests({ ...fields, retryAfter: error._tag === "RateLimited" ? error.retryAfterSeconds : 60 })
  }
}

/** A domain error as the problem of its category; `detail` replaces the error's own message. */
export const toProblem = <E extends DomainError>(
  error: E,
  detail: string = error.message
): Effect.Effect<never, ProblemFor<E>, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(requestPath, (instance) => Effect.fail(problemOf(error, detail, instance) as ProblemFor<E>))

/** Every domain error as its category's problem. */
export const problems = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catch(effect, (error) => toProblem(error))

/** Like `problems`, with the seed's reason for an unknown id (`Coach not found`). */
export const problemsWithReason =
  (notFoundReason: string) => <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.catch(effect, (error) => toProblem(error, error.category === "NotFound" ? notFoundReason : error.message))

/**
 * Errors of one category answered in a seed-pinned shape, the rest as problems.
 * `pinned` receives the errors that `isPinned` selects.
 */
export const pinned = <P extends DomainError, F>(
  isPinned: (error: DomainError) => error is P,
  failure: (error: P) => F
) =>
<A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catch(
    effect,
    (error: E): Effect.Effect<never, F | ProblemFor<Exclude<E, P>>, HttpServerRequest.HttpServerRequest> =>
      isPinned(error) ? Effect.fail(failure(error)) : toProblem(error as Exclude<E, P>)
  )

export const isNotFound = (error: DomainError): error is Extract<DomainError, { category: "NotFound" }> =>
  error.category === "NotFound"

export const isNotForbidden = (error: DomainError): error is Exclude<DomainError, { category: "Forbidden" }> =>
  error.category !== "Forbidden"
