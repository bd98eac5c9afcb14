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

const gitIn = (cwd: string, ...args: Array<string>) => {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8" }).trim()
  } catch {
    return "unknown"
  }
}

/** The commit of the checkout `dir` is in, "+ uncommitted changes" when its tree is not clean. */
export const commitOf = (dir: string) =>
  `${gitIn(dir, "rev-parse", "--short", "HEAD")}${
    gitIn(dir, "status", "--porcelain").length > 0 ? " + uncommitted changes" : ""
  }`

export const describeEnvironment = (postgres: string): Environment => ({
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  postgres,
  commit: commitOf(repoRoot)
})
