import {
  serverAnswers,
  type TemporaryDatabase,
  temporaryTestDatabase,
  testServerUrl
} from "@club/postgres-adapter/testing"
import { Effect } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type ServerProcess, spawnServer, waitUntilLive } from "@club/test-support"
import { startTcpProxy, type TcpProxy } from "../../support/TcpProxy.ts"
import { openSql, type Sql } from "./Sql.ts"

export type DatabaseKind = "server" | "embedded"

export const adminName = "reliability-admin"
export const adminPassword = "reliability-admin-password-0"
/** Known to the tests, so that they can sign tokens of their own. */
export const jwtSecret = "reliability-suite-secret-reliability-suite-secret"

/** Whether the PostgreSQL server of TEST_DATABASE_URL answers; the tests that need one skip otherwise. */
export const postgresAnswers: boolean = await (async () => {
  const url = testServerUrl()
  return url !== undefined && await Effect.runPromise(serverAnswers(url))
})()

/**
 * One database and the server instances that share it, all with the same JWT_SECRET, as an
 * operator runs several instances behind a load balancer. On a PostgreSQL server the instances
 * reach it through a TCP proxy, which a test stops to take the database away.
 */
export interface Deployment {
  readonly kind: DatabaseKind
  /** Starts one more instance and waits until it is live. */
  readonly start: (env?: Record<string, string>) => Promise<ServerProcess>
  /** Starts an instance without waiting (to watch it fail to start, for instance). */
  readonly spawn: (env?: Record<string, string>) => Promise<ServerProcess>
  /** Between the instances and PostgreSQL (server kind only). */
  readonly proxy: TcpProxy | undefined
  /** Straight to the database, not through the proxy (server kind only). */
  readonly sql: Sql | undefined
  readonly release: () => Promise<void>
}

export const deploy = async (
  kind: DatabaseKind,
  options: { readonly dataOnDisk?: boolean } = {}
): Promise<Deployment> => {
  const instances: Array<ServerProcess> = []
  let temporary: TemporaryDatabase | undefined
  let proxy: TcpProxy | undefined
  let sql: Sql | undefined
  let dataDir: string | undefined
  const env: Record<string, string> = {
    ADMIN_NAME: adminName,
    ADMIN_PASSWORD: adminPassword,
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: "warn"
  }
  if (kind === "server") {
    temporary = await temporaryTestDatabase()
    if (temporary === undefined) throw new Error("No PostgreSQL server answers at TEST_DATABASE_URL")
    proxy = await startTcpProxy(temporary.server)
    sql = await openSql(temporary.urlVia(temporary.server.host, temporary.server.port))
    env["DATABASE_URL"] = temporary.urlVia("127.0.0.1", proxy.port)
  } else if (options.dataOnDisk === true) {
    dataDir = await mkdtemp(join(tmpdir(), "club-reliability-"))
    env["DATA_DIR"] = dataDir
  } else {
    env["DATA_DIR"] = "memory://"
  }
  const spawn = async (extra: Record<string, string> = {}) => {
    const server = await spawnServer({ ...env, ...extra })
    instances.push(server)
    return server
  }
  return {
    kind,
    proxy,
    sql,
    spawn,
    start: async (extra) => {
      const server = await spawn(extra)
      await waitUntilLive(server)
      return server
    },
    release: async () => {
      await Promise.all(instances.map((server) => server.stop()))
      await proxy?.stop()
      await sql?.close()
      await temporary?.drop()
      if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
    }
  }
}
