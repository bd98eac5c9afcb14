import { spawnSync } from "node:child_process"
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterEach, describe, expect, it } from "vitest"
import { EmbeddedPostgres } from "../src/database/EmbeddedPostgres.ts"
import { extractFreshCluster } from "../src/database/freshCluster.ts"

const folders: Array<string> = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
const parent = () => {
  const path = mkdtempSync(join(tmpdir(), "club-fresh-cluster-"))
  folders.push(path)
  return path
}

/** Every entry below `path`, with its mode bits. */
const modesBelow = (path: string): Array<{ path: string; mode: number; directory: boolean }> =>
  readdirSync(path).flatMap((name) => {
    const entry = join(path, name)
    const info = lstatSync(entry)
    const here = { path: entry, mode: info.mode & 0o777, directory: info.isDirectory() }
    return info.isDirectory() ? [here, ...modesBelow(entry)] : [here]
  })

describe("a new embedded database's folder, laid out from the build's fresh cluster", () => {
  it("holds a whole cluster, private to its owner, and nothing is left beside it", async () => {
    const root = parent()
    const dataDir = join(root, "postgres")
    await extractFreshCluster(dataDir)
    expect(readFileSync(join(dataDir, "PG_VERSION"), "utf8").trim()).toMatch(/^\d+$/u)
    expect(existsSync(join(dataDir, "global", "pg_control"))).toBe(true)
    const entries = modesBelow(dataDir)
    expect(entries.length).toBeGreaterThan(100)
    expect(entries.filter(({ directory, mode }) => directory ? mode !== 0o700 : (mode & 0o077) !== 0)).toEqual([])
    expect(readdirSync(root)).toEqual(["postgres"])
  })

  it("takes an empty folder that exists already", async () => {
    const dataDir = join(parent(), "postgres")
    mkdirSync(dataDir)
    await extractFreshCluster(dataDir)
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
  })

  it("refuses a folder that holds files but no cluster, naming it, and leaves those files alone", async () => {
    const root = parent()
    const dataDir = join(root, "postgres")
    mkdirSync(dataDir)
    writeFileSync(join(dataDir, "notes.txt"), "mine")
    await expect(extractFreshCluster(dataDir)).rejects.toThrow(`${dataDir} holds files but no PostgreSQL cluster`)
    expect(readdirSync(dataDir)).toEqual(["notes.txt"])
    expect(readdirSync(root)).toEqual(["postgres"])
  })

  it("two starts laying it out at once both go on, on one cluster", async () => {
    const root = parent()
    const dataDir = join(root, "postgres")
    await Promise.all([extractFreshCluster(dataDir), extractFreshCluster(dataDir)])
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
    expect(readdirSync(root)).toEqual(["postgres"])
  })

  it("removes what a start killed while it extracted left beside the folder, and not a live start's", async () => {
    const root = parent()
    const dataDir = join(root, "postgres")
    const gone = spawnSync(process.execPath, ["-e", ""]).pid!
    const live = process.ppid
    for (const pid of [gone, live]) mkdirSync(join(root, `postgres.partial-${pid}-1`))
    await extractFreshCluster(dataDir)
    expect(readdirSync(root).sort()).toEqual(["postgres", `postgres.partial-${live}-1`])
  })

  it("is opened by PGlite as a database, which keeps what is written across a restart", async () => {
    const dataDir = join(parent(), "postgres")
    const run = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
      Effect.runPromise(Effect.scoped(effect.pipe(Effect.provide(EmbeddedPostgres({ dataDir })))))
    await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE kept (value text)`
      yield* sql`INSERT INTO kept VALUES ('written before the restart')`
    }))
    const rows = await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ value: string }>`SELECT value FROM kept`
    }))
    expect(rows.map(({ value }) => value)).toEqual(["written before the restart"])
  })
})
