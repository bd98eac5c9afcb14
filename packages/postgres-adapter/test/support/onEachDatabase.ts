import { describe, layer, type Vitest } from "@effect/vitest"
import { Layer } from "effect"
import { RepositoriesLive } from "../../src/RepositoriesLive.ts"
import type { TestDatabase } from "../../src/testing/index.ts"
import { databases } from "./databases.ts"

const repositoriesOn = (database: TestDatabase) => RepositoriesLive.pipe(Layer.provideMerge(database.layer))

export type TestServices = Layer.Success<ReturnType<typeof repositoriesOn>>

/**
 * Registers the same tests once per test database, each block on a fresh database of its own.
 * A server that does not answer skips its block instead of failing it. For what only PostgreSQL
 * shows (statements, sequences, locks); what every store must do is the repository contract
 * (`onEachDatabaseContract`).
 */
export const onEachDatabase = (title: string, tests: (it: Vitest.MethodsNonLive<TestServices>) => void) => {
  for (const database of databases) {
    describe.skipIf(!database.available)(`${title} [${database.name}]`, () => {
      // The test clock is left out: the pool and the socket server need real time.
      layer(repositoriesOn(database), { timeout: "2 minutes", excludeTestServices: true })(tests)
    })
  }
}
