import { testDatabases } from "../../src/testing/index.ts"

/** The databases the tests run on: embedded PGlite, and the test PostgreSQL server where one answers. */
export const databases = await testDatabases()
