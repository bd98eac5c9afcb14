import { Effect, Layer } from "effect"
import { CoachTable } from "./Coach.ts"
import { CoachStillOwnsSessions, EntityNotFound } from "../shared/Errors.ts"
import type { CoachId } from "../shared/Ids.ts"
import { CoachRepository } from "./CoachRepository.ts"
import { traced } from "../shared/traced.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { inMemoryRecords } from "./inMemoryRecords.ts"
import { clearUserLink } from "../users/inMemoryUserLinks.ts"

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
