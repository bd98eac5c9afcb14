import { mkdirSync } from "node:fs"
import { join } from "node:path"

export const benchDir = join(import.meta.dirname, "..", "..")
export const repoRoot = join(benchDir, "..")
export const resultsDir = join(benchDir, "results")
/** Logs, profiles and the embedded database of one run; ignored by git. */
export const tmpDir = join(benchDir, ".tmp")
/** The built server; BENCH_SERVER_MAIN points at another build (e.g. a checkout with changes under test). */
export const serverMain = process.env["BENCH_SERVER_MAIN"] ?? join(repoRoot, "apps", "server", "dist", "main.js")

/**
 * The Node binary running the bench. Under `pnpm bench` that is the workspace's pinned Node 24
 * itself, not the `node_modules/.bin/node` shell wrapper: a child started with it is the
 * server process, so its pid is the one whose memory is measured and whose group is killed.
 */
export const nodeBinary = process.execPath

export const ensureDir = (dir: string): string => {
  mkdirSync(dir, { recursive: true })
  return dir
}
