import { spawn } from "node:child_process"
import { once } from "node:events"
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { ownerOnlyFolder, restrictToOwner } from "../src/database/ownerOnly.ts"

const folders: Array<string> = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
const folder = () => {
  const path = mkdtempSync(join(tmpdir(), "club-owner-only-"))
  folders.push(path)
  return path
}

/** Another process writing files through temporary ones in `path`, as a server writes its token secret, until killed. */
const churn = (path: string) =>
  spawn(process.execPath, [
    "-e",
    `
    const { writeFileSync, renameSync } = require("node:fs")
    const { join } = require("node:path")
    for (let i = 0; ; i++) {
      const temporary = join(${JSON.stringify(path)}, "secret." + i + ".tmp")
      writeFileSync(temporary, "x", { mode: 0o644 })
      renameSync(temporary, join(${JSON.stringify(path)}, "secret"))
    }
  `
  ], { stdio: "ignore" })

describe("owner-only folders", () => {
  it("makes a folder and what it holds private to its owner", async () => {
    const path = folder()
    writeFileSync(join(path, "open"), "x", { mode: 0o666 })
    chmodSync(join(path, "open"), 0o666)
    chmodSync(path, 0o755)
    await ownerOnlyFolder(path)
    expect(statSync(path).mode & 0o777).toBe(0o700)
    expect(statSync(join(path, "open")).mode & 0o777).toBe(0o600)
  })

  it("passes over entries another process removes while the folder is walked, and still restricts the rest", async () => {
    const path = folder()
    const writer = churn(path)
    try {
      // Wait until the writer is at work, then walk the folder again and again while it renames.
      while (readdirSync(path).length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      for (let i = 0; i < 300; i++) await restrictToOwner(path)
    } finally {
      // Gone before the folder is removed: a writer still at work would refill it under `rmSync`.
      const exited = once(writer, "exit")
      writer.kill("SIGKILL")
      await exited
    }
    expect(statSync(path).mode & 0o777).toBe(0o700)
  })

  it("still fails when the folder itself is missing", async () => {
    await expect(restrictToOwner(join(folder(), "missing"))).rejects.toMatchObject({ code: "ENOENT" })
  })
})
