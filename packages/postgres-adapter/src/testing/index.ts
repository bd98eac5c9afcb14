export { type Counted, countStatements } from "./countStatements.ts"
export { EmbeddedTestDatabase } from "./EmbeddedTestDatabase.ts"
export { serverAnswers } from "./serverAnswers.ts"
export { TemporaryServerDatabase } from "./TemporaryServerDatabase.ts"
export {
  createTemporaryDatabase,
  type TemporaryDatabase,
  type TemporaryDatabaseOptions,
  temporaryTestDatabase
} from "./TemporaryDatabase.ts"
export { type TestDatabase, testDatabases } from "./testDatabases.ts"
export { defaultTestDatabaseUrl, testServerUrl } from "./testServerUrl.ts"
export { keptAfterErasure, type Leftover, leftoversOf } from "./leftovers.ts"
