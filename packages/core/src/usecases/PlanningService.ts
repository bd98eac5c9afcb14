import { Context, Effect, Layer } from "effect"
import { authorize } from "../domain/Permissions.ts"
import {
  cursorOf,
  defaultPageLimit,
  type PageCursor,
  positionOf,
  SessionPage,
  type SessionQuery
} from "../domain/SessionPage.ts"
import { SessionRepository } from "../ports/SessionRepository.ts"
import { traced } from "../tracing/traced.ts"

/** What a page request names beside its filters: how many at most, and after which cursor. */
export interface PageRequest {
  readonly limit?: number | undefined
  readonly cursor?: PageCursor | undefined
}

/** The planning's listing of sessions (issue 17): filtered, and paged by cursor. */
const make = Effect.gen(function*() {
  const sessions = yield* SessionRepository
  return {
    /**
     * One page of the sessions matching `query`, in (`creneau`, `id`) order, and the cursor of the
     * next (null when this one is the last). One statement: a row more than the page is read to
     * know whether another page follows.
     */
    sessions: traced("PlanningService.sessions")(function*(query: SessionQuery, request: PageRequest = {}) {
      yield* authorize("planning.read")
      const limit = request.limit ?? defaultPageLimit
      const after = request.cursor === undefined ? undefined : positionOf(request.cursor)
      const read = yield* sessions.page(query, after, limit + 1)
      const items = read.slice(0, limit)
      const last = items.at(-1)
      return new SessionPage({
        items,
        nextCursor: read.length > limit && last !== undefined ? cursorOf(last) : null
      })
    })
  }
})

export class PlanningService extends Context.Service<PlanningService, Effect.Success<typeof make>>()(
  "@club/core/PlanningService"
) {
  static readonly layer = Layer.effect(PlanningService, make)
}
