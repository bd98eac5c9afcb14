import { Effect, Layer } from "effect"
import { Athlete, AthleteTable, type AthleteUpdate } from "./Athlete.ts"
import { EntityNotFound } from "../shared/Errors.ts"
import type { AthleteId } from "../shared/Ids.ts"
import { AthleteRepository } from "./AthleteRepository.ts"
import { traced } from "../shared/traced.ts"
import { inMemoryRecords } from "./inMemoryRecords.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { clearUserLink } from "../users/inMemoryUserLinks.ts"

export const InMemoryAthleteRepository = Layer.effect(
  AthleteRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const { athletes, sessions } = store

    const { create, findById, list } = inMemoryRecords(store, AthleteTable)

    const update = traced("AthleteRepository.update")(function*(id: AthleteId, input: AthleteUpdate) {
      if (!athletes.has(id)) return yield* new EntityNotFound({ entity: "Athlete", id })
      if (input.sessionIds !== null) {
        const unknown = sessions.unknownReferences("sessionIds", input.sessionIds)
        if (unknown !== undefined) return yield* unknown
      }
      const updated = new Athlete({ id, name: input.name, categorie: input.categorie, niveau: input.niveau })
      if (input.sessionIds !== null) {
        const member = new Set(input.sessionIds)
        for (const session of sessions.values()) {
          if (member.has(session.id)) session.athleteIds.add(id)
          else session.athleteIds.delete(id)
        }
      }
      return athletes.replace(updated)
    })

    const remove = traced("AthleteRepository.delete")(function*(id: AthleteId) {
      if (!athletes.delete(id)) return yield* new EntityNotFound({ entity: "Athlete", id })
      for (const session of sessions.values()) session.athleteIds.delete(id)
      clearUserLink(store, { field: "athleteId", id })
      // Its guardians' links go with it, as the foreign key's cascade removes them in the database.
      store.guardians.delete(id)
    })

    return AthleteRepository.of({ create, findById, list, update, delete: remove })
  })
)
