import { serverAnswers, temporaryTestDatabase, testServerUrl } from "@club/postgres-adapter/testing"
import { freePort, type ServerProcess, startServer } from "@club/test-support"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"

/**
 * docs/FIRST-WORKFLOW.md, run as a reader runs it: the server started with the variables its start
 * block gives, then every other shell block, in order, in one bash, with the settings block's values
 * edited as a reader edits them. The workflow breaks this test: a command that fails stops the run.
 */
const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const workflow = readFileSync(join(repo, "docs/FIRST-WORKFLOW.md"), "utf8")
const readme = readFileSync(join(repo, "README.md"), "utf8")

/** The quick start's command, which the workflow's start block repeats with its own variables. */
const startCommand = "npx --yes pnpm@10.34.8 --silent start"

/** The markdown's ```sh blocks, without their fences. */
const shellBlocks = (markdown: string): Array<string> =>
  [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gmu)].map((match) => match[1]!)

const startPattern = /^((?:[A-Z_]+=\S+ )*)npx --yes pnpm@10\.34\.8 --silent start\n$/u

/** The environment variables the start block sets before the start command. */
const startVariables = (block: string): Record<string, string> =>
  Object.fromEntries(
    (startPattern.exec(block)?.[1] ?? "").trim().split(/ +/u).filter((word) => word !== "").map((assignment) => {
      const equals = assignment.indexOf("=")
      return [assignment.slice(0, equals), assignment.slice(equals + 1)]
    })
  )

/** Replaces the value of a `NAME=value` line, which must be there exactly once. */
const setting = (script: string, name: string, value: string): string => {
  const line = new RegExp(`^${name}=.*$`, "gmu")
  expect(script.match(line), `one ${name}= line in the settings block`).toHaveLength(1)
  return script.replace(line, () => `${name}=${value}`)
}

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs the script in bash, in a process group of its own: the workflow's webhook receiver runs in the
 * background, and when a failing command stops the script before the workflow ends it, it is ended here.
 */
const runBash = (script: string): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { detached: true, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.once("error", reject)
    child.once("exit", (code) => {
      try {
        process.kill(-child.pid!, "SIGTERM")
      } catch {
        // The group is gone: the workflow ended its receiver itself.
      }
      child.once("close", () => resolve({ code, stdout, stderr }))
    })
  })

const postgresAnswers = await (async () => {
  const url = testServerUrl()
  return url !== undefined && await Effect.runPromise(serverAnswers(url))
})()

interface Database {
  readonly env: Record<string, string>
  readonly release: () => Promise<void>
}

const databases = [
  {
    name: "the embedded database (DATA_DIR, as the quick start)",
    available: true,
    open: async (): Promise<Database> => {
      const dataDir = await mkdtemp(join(tmpdir(), "club-first-workflow-"))
      return { env: { DATA_DIR: dataDir }, release: () => rm(dataDir, { recursive: true, force: true }) }
    }
  },
  {
    name: "a real PostgreSQL (DATABASE_URL)",
    available: postgresAnswers,
    open: async (): Promise<Database> => {
      const temporary = await temporaryTestDatabase()
      if (temporary === undefined) throw new Error("No PostgreSQL server answers at TEST_DATABASE_URL")
      return { env: { DATABASE_URL: temporary.url }, release: () => temporary.drop() }
    }
  }
]

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe("docs/FIRST-WORKFLOW.md", () => {
  const blocks = shellBlocks(workflow)

  it("starts with the quick start's command, given a setting the workflow needs, and the README leads to it", () => {
    expect(blocks[0]).toMatch(startPattern)
    expect(blocks.slice(1).filter((block) => block.includes(startCommand))).toEqual([])
    expect(readme).toContain(startCommand)
    expect(readme).toContain("(docs/FIRST-WORKFLOW.md)")
    expect(startVariables(blocks[0]!)).toEqual({ WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1" })
  })

  for (const database of databases) {
    // A first start migrates its database (seconds; more on a busy machine), then the workflow runs.
    it.skipIf(!database.available)(
      `runs block by block against a fresh server on ${database.name}, reaching the athlete's calendar feed`,
      { timeout: 300_000 },
      async () => {
        const opened = await database.open()
        cleanups.push(opened.release)
        const adminPassword = "first-workflow-admin-password"
        const server: ServerProcess = await startServer({
          ...opened.env,
          ADMIN_PASSWORD: adminPassword,
          ...startVariables(blocks[0]!)
        })
        cleanups.push(server.stop)
        const base = `http://127.0.0.1:${server.port}`

        let script = blocks.slice(1).map((block, index) => `echo '--- block ${index + 2}' >&2\n${block}`).join("\n")
        script = setting(script, "BASE", base)
        script = setting(script, "ADMIN_PASSWORD", `'${adminPassword}'`)
        script = setting(script, "RECEIVER_PORT", String(await freePort()))
        const run = await runBash(
          `set -Eeuo pipefail\ntrap 'echo "failed: $BASH_COMMAND" >&2' ERR\n${script}`
        )
        expect(run.code, `the workflow's commands succeed:\n${run.stderr}\n${run.stdout}`).toBe(0)

        // The receiver printed the reply's event, and the delivery log says it was delivered.
        expect(run.stdout).toMatch(/^webhook received: .*"type" ?: ?"reply"/mu)
        expect(run.stdout).toContain(`"delivered":true`)

        // The feed URL the workflow ends with answers iCalendar with the session and the series.
        const feedUrl = /^Calendar feed: (\S+)$/mu.exec(run.stdout)?.[1]
        expect(feedUrl?.startsWith(`${base}/planning/feeds/`)).toBe(true)
        const feed = await fetch(feedUrl!)
        expect(feed.status).toBe(200)
        expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8")
        const calendar = await feed.text()
        expect(calendar).toContain("SUMMARY:Track intervals")
        expect(calendar).toContain("SUMMARY:Thursday endurance")
        expect(calendar).toMatch(/^RRULE:FREQ=WEEKLY;BYDAY=TH;/mu)
        expect(run.stdout).toContain("BEGIN:VCALENDAR")
      }
    )
  }
})
