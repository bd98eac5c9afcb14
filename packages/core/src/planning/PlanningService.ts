import { Context, Effect, Layer } from "effect"
import { authorize } from "../shared/Permissions.ts"
import { openCursor } from "../shared/Cursor.ts"
import {
  defaultPageLimit,
  type PageCursor,
  readSessionPosition,
  SessionPage,
  sessionPositionText,
  type SessionQuery
} from "../sessions/SessionPage.ts"
import { CursorSeal } from "../shared/CursorSeal.ts"
import { SessionRepository } from "../sessions/SessionRepository.ts"
import { traced } from "../shared/traced.ts"

/** What a page request names beside its filters: how many at most, and after which cursor. */
export interface PageRequest {
  readonly limit?: number | undefined
  readonly cursor?: PageCursor | undefined
}

/** The planning's listing of sessions (issue 17): filtered, and paged by cursor. */
const make = Effect.gen(function*() {
  const sessions = yield* SessionRepository
  const cursors = yield* CursorSeal
  return {
    /**
     * One page of the sessions matching `query`, in (`creneau`, `id`) order, and the cursor of the
     * next (null when this one is the last). One statement: a row more than the page is read to
     * know whether another page follows.
     */
    sessions: traced("PlanningService.sessions")(function*(query: SessionQuery, request: PageRequest = {}) {
      yield* authorize("planning.read")
      const limit = request.limit ?? defaultPageLimit
      const after = request.cursor === undefined
        ? undefined
        : yield* openCursor(cursors, request.cursor, readSessionPosition)
      const read = yield* sessions.page(query, after, limit + 1)
      const items = read.slice(0, limit)
      const last = items.at(-1)
      return new SessionPage({
        items,
        nextCursor: read.length > limit && last !== undefined ? cursors.seal(sessionPositionText(last)) : null
      })
    })
  }
})

export class PlanningService extends Context.Service<PlanningService, Effect.Success<typeof make>>()(
  "@club/core/PlanningService"
) {
  static readonly layer = Layer.effect(PlanningService, make)
}
