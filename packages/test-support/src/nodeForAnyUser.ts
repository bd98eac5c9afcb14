import { chmodSync, copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

/** Whether another OS user may pass through every folder above `path` and run it. */
export const othersMayRun = (path: string): boolean => {
  for (let at = path;; at = dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false
    if (dirname(at) === at) return true
  }
}

let copy: string | undefined

/**
 * The Node running this process, as a path any OS user can execute, for a child run as another
 * user. A checkout under a private folder (`mktemp -d` makes one 0700) keeps the workspace's pinned
 * Node from other users; then a copy of it in a temporary folder of its own is used instead,
 * removed when this process exits.
 */
export const nodeForAnyUser = (): string => {
  if (othersMayRun(process.execPath)) return process.execPath
  if (copy === undefined) {
    const folder = mkdtempSync(join(tmpdir(), "club-node-"))
    chmodSync(folder, 0o755)
    copy = join(folder, "node")
    copyFileSync(process.execPath, copy)
    chmodSync(copy, 0o755)
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }))
  }
  return copy
}
