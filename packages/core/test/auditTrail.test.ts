import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { type Actor, type AuditEntry, AuditService, CurrentActor, type UserId } from "../src/index.ts"
import { InMemoryRepositories, InMemoryStore } from "../src/testing.ts"

const layer = AuditService.layer.pipe(Layer.provideMerge(InMemoryRepositories))

const caller = (role: Actor["role"]): Actor => ({
  userId: 1 as UserId,
  role,
  coachId: null,
  athleteId: null,
  adminId: null
})

const entry = (id: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: `2027-01-${String(id).padStart(2, "0")}T10:00:00.000000Z`,
  actor: { userId: id % 2 === 0 ? 2 : 3, role: "ADMIN" },
  requestId: `req-${id}`,
  operation: "insert",
  recordType: id % 3 === 0 ? "users" : "athletes",
  records: { id: 100 + id },
  changes: {},
  ...more
})

/** The in-memory store's reading of the trail: the order, paging and filters PostgreSQL's statement has. */
describe("AuditService on the in-memory store", () => {
  it.effect("pages newest first by sealed cursors, filters, and refuses a non-admin", () =>
    Effect.gen(function*() {
      const store = yield* InMemoryStore
      for (let id = 1; id <= 9; id++) store.auditEntries.push(entry(id))
      const audit = yield* AuditService
      const asAdmin = Effect.provideService(CurrentActor, caller("ADMIN"))

      const first = yield* audit.list({ limit: 4 }).pipe(asAdmin)
      expect(first.items.map((e) => e.id)).toEqual([9, 8, 7, 6])
      const second = yield* audit.list({ limit: 4, cursor: first.nextCursor! }).pipe(asAdmin)
      expect(second.items.map((e) => e.id)).toEqual([5, 4, 3, 2])
      const last = yield* audit.list({ limit: 4, cursor: second.nextCursor! }).pipe(asAdmin)
      expect(last).toEqual({ items: [entry(1)], nextCursor: null })

      expect((yield* audit.list({ userId: 2 }).pipe(asAdmin)).items.map((e) => e.id)).toEqual([8, 6, 4, 2])
      expect((yield* audit.list({ recordType: "users" }).pipe(asAdmin)).items.map((e) => e.id)).toEqual([9, 6, 3])
      expect((yield* audit.list({ recordId: "105" }).pipe(asAdmin)).items.map((e) => e.id)).toEqual([5])
      expect((yield* audit.list({ operation: "delete" }).pipe(asAdmin)).items).toEqual([])
      expect(
        (yield* audit.list({ from: "2027-01-03T00:00:00Z", to: "2027-01-05T10:00:00Z" }).pipe(asAdmin)).items.map((e) =>
          e.id
        )
      ).toEqual([4, 3])

      const refused = yield* Effect.exit(audit.list({}).pipe(Effect.provideService(CurrentActor, caller("COACH"))))
      expect(Exit.isFailure(refused)).toBe(true)
    }).pipe(Effect.provide(layer)))
})
