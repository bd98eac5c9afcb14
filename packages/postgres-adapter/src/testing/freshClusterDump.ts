import { open, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { inMemory } from "../database/EmbeddedPostgres.ts"

/**
 * Creating a PGlite cluster runs initdb in WASM, several seconds of CPU; loading a dump of a
 * fresh cluster takes half a second. Test processes share one dump through the temp folder,
 * keyed by PGlite's version, and the first process to need it creates it while the others wait.
 */

const pgliteVersion = async (): Promise<string> => {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  const manifest = JSON.parse(await readFile(join(dirname(entry), "..", "package.json"), "utf8")) as { version: string }
  return manifest.version
}

const readIfPresent = async (path: string): Promise<Blob | undefined> => {
  try {
    return new Blob([await readFile(path)])
  } catch {
    return undefined
  }
}

const createDump = async (): Promise<Blob> => {
  const db = await PGlite.create(inMemory)
  try {
    return await db.dumpDataDir("none")
  } finally {
    await db.close()
  }
}

const writeAtomically = async (path: string, dump: Blob) => {
  const partial = `${path}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, path)
}

const staleLockMs = 120_000
const waitForOtherCreatorMs = 60_000

/** Takes the creation lock, or reports that a live process holds it. A lock left by a crash expires. */
const tryLock = async (lockPath: string): Promise<boolean> => {
  try {
    await (await open(lockPath, "wx")).close()
    return true
  } catch {
    const held = await stat(lockPath).catch(() => undefined)
    if (held !== undefined && Date.now() - held.mtimeMs < staleLockMs) return false
    await rm(lockPath, { force: true })
    return tryLock(lockPath)
  }
}

const waitFor = async (path: string): Promise<Blob | undefined> => {
  for (let waited = 0; waited < waitForOtherCreatorMs; waited += 250) {
    const dump = await readIfPresent(path)
    if (dump !== undefined) return dump
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return undefined
}

const loadOrCreate = async (): Promise<Blob> => {
  const path = join(tmpdir(), `club-pglite-${await pgliteVersion()}-fresh-cluster.tar`)
  const existing = await readIfPresent(path)
  if (existing !== undefined) return existing
  const lockPath = `${path}.lock`
  if (!(await tryLock(lockPath))) {
    const created = await waitFor(path)
    if (created !== undefined) return created
  }
  try {
    const dump = await createDump()
    await writeAtomically(path, dump)
    return dump
  } finally {
    await rm(lockPath, { force: true })
  }
}

let shared: Promise<Blob> | undefined

/** A dump of a fresh, empty PGlite cluster, made at most once per machine and PGlite version. */
export const freshClusterDump = (): Promise<Blob> => shared ??= loadOrCreate()
