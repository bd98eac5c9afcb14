import { Context, Effect, Layer } from "effect"
import { openCursor } from "../shared/Cursor.ts"
import { CursorSeal } from "../shared/CursorSeal.ts"
import { authorize } from "../shared/Permissions.ts"
import { traced } from "../shared/traced.ts"
import { defaultPageLimit } from "../sessions/SessionPage.ts"
import type { AuditEntry, AuditFilter } from "./AuditEntry.ts"
import { AuditRepository } from "./AuditRepository.ts"

/** A page of the trail, newest first, and the cursor of the next (older) page; null on the last. */
export interface AuditPage {
  readonly items: ReadonlyArray<AuditEntry>
  readonly nextCursor: string | null
}

export interface AuditPageRequest extends AuditFilter {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** The id a sealed cursor's text names: a positive integer; undefined for any other text. */
const readId = (text: string): number | undefined => /^[1-9][0-9]{0,15}$/u.test(text) ? Number(text) : undefined

const make = Effect.gen(function*() {
  const repository = yield* AuditRepository
  const cursors = yield* CursorSeal
  return {
    /** `audit.read` (admins): one page, one entry more read than answered to know whether another follows. */
    list: traced("AuditService.list")(function*(request: AuditPageRequest) {
      yield* authorize("audit.read")
      const before = request.cursor === undefined ? null : yield* openCursor(cursors, request.cursor, readId)
      const limit = request.limit ?? defaultPageLimit
      const read = yield* repository.read(request, { before, limit: limit + 1 })
      const items = read.slice(0, limit)
      const last = items.at(-1)
      return {
        items,
        nextCursor: read.length > limit && last !== undefined ? cursors.seal(String(last.id)) : null
      } satisfies AuditPage
    })
  }
})

export class AuditService extends Context.Service<AuditService, Effect.Success<typeof make>>()(
  "@club/core/AuditService"
) {
  static readonly layer = Layer.effect(AuditService, make)
}
