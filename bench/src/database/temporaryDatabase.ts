import { randomBytes } from "node:crypto"
import { registerCleanup } from "../process/cleanup.ts"
import { runSql, withDatabase } from "./runSql.ts"

export interface TemporaryDatabase {
  readonly name: string
  readonly url: string
  readonly drop: () => Promise<void>
}

/** A fresh, empty database on the server at `serverUrl`; dropped by `drop` or by the bench's cleanup. */
export const createTemporaryDatabase = async (serverUrl: string, purpose: string): Promise<TemporaryDatabase> => {
  const name = `club_bench_${purpose}_${randomBytes(4).toString("hex")}`
  await runSql(serverUrl, (sql) => sql`CREATE DATABASE ${sql(name)}`)
  let dropped = false
  const drop = async () => {
    if (dropped) return
    dropped = true
    unregister()
    // FORCE ends the connections of any server that was not stopped cleanly.
    await runSql(serverUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)
  }
  const unregister = registerCleanup(`drop database ${name}`, drop)
  return { name, url: withDatabase(serverUrl, name), drop }
}
