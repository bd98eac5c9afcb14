import { Effect, Layer } from "effect"
import { CoachTable } from "../domain/Coach.ts"
import { CoachStillOwnsSessions, EntityNotFound } from "../domain/Errors.ts"
import type { CoachId } from "../domain/Ids.ts"
import { CoachRepository } from "../ports/CoachRepository.ts"
import { traced } from "../tracing/traced.ts"
import { InMemoryStore } from "./InMemoryStore.ts"
import { inMemoryRecords } from "./inMemoryRecords.ts"
import { clearUserLink } from "./userLinks.ts"

export const InMemoryCoachRepository = Layer.effect(
  CoachRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const records = inMemoryRecords(store, CoachTable)

    const remove = traced("CoachRepository.delete")(function*(id: CoachId) {
      if (!store.coaches.has(id)) return yield* new EntityNotFound({ entity: "Coach", id })
      let sessionCount = 0
      for (const session of store.sessions.values()) if (session.coachId === id) sessionCount++
      if (sessionCount > 0) return yield* new CoachStillOwnsSessions({ coachId: id, sessionCount })
      store.coaches.delete(id)
      clearUserLink(store, { field: "coachId", id })
    })

    return CoachRepository.of({
      create: records.create,
      findById: records.findById,
      list: records.list,
      update: records.update,
      delete: remove
    })
  })
)
