import { Context } from "effect"

/**
 * Who a write is done for, as its audit entry names it (issue 43 item 4, docs/privacy.md): the
 * authenticated user and their role, and the request's id. The adapters provide it per request,
 * where they provide `CurrentActor`; the stores read it at their write, as they read
 * `NoticeSettings`. Absent (null user), the write is the server's own: series extension, retention
 * purge, notice worker, first admin, which the trail names "system".
 */
export interface AuditActor {
  readonly userId: number | null
  readonly role: string | null
  readonly requestId: string | null
}

export const systemAuditActor: AuditActor = { userId: null, role: null, requestId: null }

export const AuditActor = Context.Reference<AuditActor>("@club/core/AuditActor", {
  defaultValue: () => systemAuditActor
})
