import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root, where `redocly.yaml` is. */
export const repositoryRoot = fileURLToPath(new URL("../../../../../", import.meta.url))
const serverPackage = join(repositoryRoot, "apps", "server", "package.json")
const require = createRequire(serverPackage)

/** The entry script of a tool installed as a devDependency of the server (run on this Node, not a shell shim). */
export const toolEntry = (packageName: string, bin: string): string =>
  join(dirname(require.resolve(`${packageName}/package.json`)), bin)

export const redoclyCli = () => toolEntry("@redocly/cli", "bin/cli.js")
export const prismCli = () => toolEntry("@stoplight/prism-cli", "dist/index.js")
export const typescriptCompiler = join(repositoryRoot, "node_modules", "typescript", "bin", "tsc")

/** Tools are told not to phone home: the machine has no network, and a wait for one would only slow the test. */
export const quietToolEnvironment: Record<string, string> = {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_UPDATE_NOTIFIER: "1",
  SCARF_ANALYTICS: "false",
  DO_NOT_TRACK: "1"
}

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a Node script on the pinned Node; resolves with its exit code and output, whatever the code. */
export const runNode = (
  args: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Record<string, string> } = {}
): Promise<Run> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [...args], {
      cwd: options.cwd ?? repositoryRoot,
      env: { ...process.env, ...quietToolEnvironment, ...options.env },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 240_000
    }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") return reject(error)
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    })
  })

/** A folder of its own under the system's temporary folder, removed by `remove`. */
export const temporaryFolder = (prefix: string) => {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}
