import { describe, layer, type Vitest } from "@effect/vitest"
import { Layer } from "effect"
import { RepositoriesLive } from "../../src/repositories/RepositoriesLive.ts"
import { type TestDatabase, testDatabases } from "../../src/testing/index.ts"

const databases = await testDatabases()

const repositoriesOn = (database: TestDatabase) => RepositoriesLive.pipe(Layer.provideMerge(database.layer))

export type TestServices = Layer.Success<ReturnType<typeof repositoriesOn>>

/**
 * Registers the same tests once per test database, each block on a fresh database of its own.
 * A server that does not answer skips its block instead of failing it.
 */
export const onEachDatabase = (title: string, tests: (it: Vitest.MethodsNonLive<TestServices>) => void) => {
  for (const database of databases) {
    describe.skipIf(!database.available)(`${title} [${database.name}]`, () => {
      // The test clock is left out: the pool and the socket server need real time.
      layer(repositoriesOn(database), { timeout: "2 minutes", excludeTestServices: true })(tests)
    })
  }
}
