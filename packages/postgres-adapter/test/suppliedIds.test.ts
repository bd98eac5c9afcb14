import { AthleteCreate, AthleteId, AthleteRepository } from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { suppliedIdsContract } from "../../core/test/repositoryContract/suppliedIds.ts"
import { onEachDatabase } from "./support/onEachDatabase.ts"
import { onEachDatabaseContract } from "./support/onEachDatabaseContract.ts"

onEachDatabaseContract(suppliedIdsContract)

onEachDatabase("Supplied ids: the identity sequence", (it) => {
  it.effect("a generated insert skips ids taken behind the sequence's back", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const athletes = yield* AthleteRepository
      yield* athletes.create(new AthleteCreate({ id: null, name: "first", categorie: null, niveau: null }))
      // What a concurrent supplied-id insert looks like between its INSERT and its setval.
      const [sequence] = yield* sql<{ next: number }>`SELECT (last_value + 1)::int AS next FROM athletes_id_seq`
      const next = sequence!.next
      yield* sql`INSERT INTO athletes (id, name) VALUES (${next}, 'sneaky'), (${next + 1}, 'sneaky too')`

      const generated = yield* athletes.create(
        new AthleteCreate({ id: null, name: "after the sneaky ones", categorie: null, niveau: null })
      )
      expect(generated.id).toBe(next + 2)
      expect(Option.map(yield* athletes.findById(AthleteId.make(next)), (athlete) => athlete.name)).toEqual(
        Option.some("sneaky")
      )
    }))
})
