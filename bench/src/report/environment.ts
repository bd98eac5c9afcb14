import { execFileSync } from "node:child_process"
import { cpus, totalmem } from "node:os"
import { repoRoot } from "../process/paths.ts"

export interface Environment {
  readonly date: string
  readonly node: string
  readonly cpu: string
  readonly cores: number
  readonly memoryGiB: number
  readonly postgres: string
  readonly commit: string
}

const git = (...args: Array<string>) => {
  try {
    return execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim()
  } catch {
    return "unknown"
  }
}

export const describeEnvironment = (postgres: string): Environment => ({
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  postgres,
  commit: `${git("rev-parse", "--short", "HEAD")}${
    git("status", "--porcelain").length > 0 ? " + uncommitted changes" : ""
  }`
})
