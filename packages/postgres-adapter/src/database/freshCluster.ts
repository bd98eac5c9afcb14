import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { gunzipSync } from "node:zlib"
import { restrictToOwner } from "./ownerOnly.ts"

/**
 * A new embedded database starts from an archive of a fresh cluster that the package's build made
 * (`scripts/dumpFreshCluster.ts`, `PGlite.dumpDataDir` of a new in-memory PGlite), not from
 * PGlite's initdb in the server's process: initdb runs a second PostgreSQL and an initdb module in
 * WebAssembly, several seconds of CPU and more than 600 MiB at its peak, which a host of 256 MiB
 * cannot give (docs/decisions/0332). A folder gets the archive extracted into it, streamed, before
 * PGlite opens it as it opens any existing database; `memory://` gets it through PGlite's
 * `loadDataDir`, which holds the whole archive in memory several times over while it loads.
 *
 * The archive lies in the package's `dist`, beside the built code, and is read from there by the
 * source too (tests run the source after the build).
 */
export const freshClusterFile = new URL(
  import.meta.url.endsWith(".ts") ? "../../dist/freshCluster.tar.gz" : "./freshCluster.tar.gz",
  import.meta.url
)

/** The script that extracts the archive, beside this module and in its language (source in tests, `dist` otherwise). */
const extractScript = new URL(
  import.meta.url.endsWith(".ts") ? "./freshClusterExtract.ts" : "./freshClusterExtract.js",
  import.meta.url
)

const missingArchive = () =>
  new Error(
    `The embedded database's fresh cluster (${
      fileURLToPath(freshClusterFile)
    }) is missing: build @club/postgres-adapter`
  )

/** The fresh cluster's archive, gzipped, as the build wrote it. */
export const readFreshCluster = async (): Promise<ArrayBuffer> => {
  const bytes = await readFile(freshClusterFile).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ENOENT" ? missingArchive() : error
  })
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

/**
 * A gzipped `PGlite.dumpDataDir` archive (`readFreshCluster`'s) as PGlite loads it: the tar itself.
 * Gunzipped in one call, which is several times faster than zlib's asynchronous stream of small
 * chunks; it runs in the database's worker before the database opens, where it holds nothing up.
 */
export const tarOf = (archive: ArrayBuffer): Blob => new Blob([new Uint8Array(gunzipSync(new Uint8Array(archive)))])

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Removes the partial folders beside `dataDir` of starts whose process is gone (killed while it
 * extracted); another live start's folder stays.
 */
const removeAbandoned = async (dataDir: string) => {
  const prefix = `${basename(dataDir)}.partial-`
  for (const entry of await readdir(dirname(dataDir))) {
    if (!entry.startsWith(prefix)) continue
    const pid = Number(entry.slice(prefix.length).split("-")[0])
    if (Number.isSafeInteger(pid) && pid > 0 && !isAlive(pid)) {
      await rm(join(dirname(dataDir), entry), { recursive: true, force: true })
    }
  }
}

/**
 * Lays the fresh cluster out as the folder `dataDir`, which must not exist or be empty: extracted
 * into a private folder beside it, by a process of its own (`freshClusterExtract.ts` says why),
 * then renamed into place, so that a start cut short leaves no half a cluster where the next start
 * would open it. Where another start laid a cluster out first, that one stays.
 */
export const extractFreshCluster = async (dataDir: string): Promise<void> => {
  const partial = `${dataDir}.partial-${process.pid}-${Date.now()}`
  await mkdir(partial, { recursive: true, mode: 0o700 })
  await removeAbandoned(dataDir)
  try {
    if (!existsSync(freshClusterFile)) throw missingArchive()
    await promisify(execFile)(process.execPath, [
      fileURLToPath(extractScript),
      fileURLToPath(freshClusterFile),
      partial
    ])
    await restrictToOwner(partial)
    await rename(partial, dataDir).catch((error: NodeJS.ErrnoException) => {
      if (existsSync(join(dataDir, "PG_VERSION"))) return
      throw error.code === "ENOTEMPTY" || error.code === "EEXIST"
        ? new Error(
          `${dataDir} holds files but no PostgreSQL cluster (no PG_VERSION): move them away or choose another DATA_DIR`
        )
        : error
    })
  } finally {
    await rm(partial, { recursive: true, force: true })
  }
}
