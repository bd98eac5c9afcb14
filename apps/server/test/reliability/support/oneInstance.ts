import { afterAll, beforeAll } from "vitest"
import type { ServerProcess } from "@club/test-support"
import { type DatabaseKind, deploy, type Deployment } from "./Deployment.ts"
import { type Principals, setUpPrincipals, urlOf } from "./principals.ts"

/** What the tests of a describe block share: its deployment, its one instance and the principals. */
export interface OneInstance {
  readonly deployment: Deployment
  readonly server: ServerProcess
  readonly baseUrl: string
  readonly principals: Principals
}

/** "PostgreSQL server" or "embedded database", for test names. */
export const databaseLabel = (kind: DatabaseKind) => (kind === "server" ? "PostgreSQL server" : "embedded database")

/**
 * Deploys one instance on a database of `kind` before the block's tests and releases it after
 * them; call inside `describe`. The returned object is filled in by `beforeAll`.
 */
export const oneInstance = (kind: DatabaseKind): OneInstance => {
  const shared = {} as { -readonly [K in keyof OneInstance]: OneInstance[K] }
  beforeAll(async () => {
    shared.deployment = await deploy(kind)
    shared.server = await shared.deployment.start()
    shared.baseUrl = urlOf(shared.server.port)
    shared.principals = await setUpPrincipals(shared.baseUrl)
  })
  afterAll(() => shared.deployment?.release())
  return shared
}
