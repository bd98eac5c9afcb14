import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)
const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const appTemplate = fileURLToPath(new URL("../../app/", import.meta.url))
/** The pinned Node of the workspace: the app runs on what the packages say they need. */
export const node = join(repo, "node_modules", "node", "bin", "node")

export interface Packed {
  readonly name: string
  readonly version: string
  readonly tarball: string
}

/** Every publishable package of the workspace, packed as it would be published (scripts/pack-packages.mjs). */
export const packPackages = async (folder: string): Promise<ReadonlyArray<Packed>> => {
  const { stdout } = await run(node, [join(repo, "scripts", "pack-packages.mjs"), folder], {
    cwd: repo,
    maxBuffer: 16 * 1024 * 1024
  })
  return JSON.parse(stdout) as ReadonlyArray<Packed>
}

export interface InstalledApp {
  readonly dir: string
  /** Runs a command in the app's folder; rejects with its output when it fails. */
  readonly exec: (command: string, args: ReadonlyArray<string>, env?: Record<string, string>) => Promise<string>
  readonly remove: () => void
}

/**
 * A copy of examples/sdk-consumer/app in a folder of its own, outside the workspace, with the
 * tarballs in place of the registry's versions, installed by plain npm from the registry.
 */
export const installApp = async (packed: ReadonlyArray<Packed>, effectVersion?: string): Promise<InstalledApp> => {
  const dir = mkdtempSync(join(tmpdir(), "club-consumer-"))
  for (const entry of ["package.json", "tsconfig.json", "src"]) {
    cpSync(join(appTemplate, entry), join(dir, entry), { recursive: true })
  }
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    dependencies: Record<string, string>
  }
  for (const { name, tarball } of packed) manifest.dependencies[name] = `file:${tarball}`
  if (effectVersion !== undefined) manifest.dependencies["effect"] = effectVersion
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  return appIn(dir)
}

/**
 * The environment without the `npm_config_*` settings of the npm or pnpm that started the tests
 * (`npx pnpm test` passes on npx's, `omit-lockfile-registry-resolved` among them): the app's npm
 * runs as another team's would, with its own configuration.
 */
const ownEnvironment = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/iu.test(name)))

/** Runs commands in an app's folder. */
const appIn = (dir: string): InstalledApp => {
  const exec = async (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
    try {
      const { stderr, stdout } = await run(command, args, {
        cwd: dir,
        env: { ...ownEnvironment(), ...env },
        maxBuffer: 64 * 1024 * 1024
      })
      void stderr
      return stdout
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string }
      throw new Error(
        `${command} ${args.join(" ")} failed in ${dir}:\n${failed.stdout ?? ""}${failed.stderr ?? failed.message}`
      )
    }
  }
  return { dir, exec, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The app's sources that need only `@club/client-sdk` and `effect` (no core as a library). */
export const sdkOnlySources = ["check.ts", "promiseFace.ts", "effectFace.ts", "restOnly.ts", "sdkOnly.ts"]

/**
 * An empty app outside the workspace that installs the SDK as the README says, by name from a
 * registry (`npm install @club/client-sdk effect`), then TypeScript to type-check it, and the
 * template's sources that use only the SDK.
 */
export const installFromRegistry = async (
  registry: { readonly url: string; readonly npmrc: string; readonly cache: string }
) => {
  const dir = mkdtempSync(join(tmpdir(), "club-fresh-"))
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "fresh-app", private: true, type: "module" })}\n`)
  cpSync(join(appTemplate, "tsconfig.json"), join(dir, "tsconfig.json"))
  mkdirSync(join(dir, "src"))
  for (const file of sdkOnlySources) cpSync(join(appTemplate, "src", file), join(dir, "src", file))
  const app = appIn(dir)
  const npm = [
    "--registry",
    registry.url,
    "--userconfig",
    registry.npmrc,
    "--cache",
    registry.cache,
    "--prefer-offline",
    "--no-audit",
    "--no-fund"
  ]
  await app.exec("npm", ["install", "@club/client-sdk", "effect", ...npm, "--loglevel=error"])
  await app.exec("npm", [
    "install",
    "--save-dev",
    "typescript@^5.9.0",
    "@types/node@^24.0.0",
    ...npm,
    "--loglevel=error"
  ])
  return app
}

export const npmInstall = (app: InstalledApp) =>
  app.exec("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"])

/**
 * Each TypeScript example of the installed packages' READMEs, written into the app's sources, so
 * that the app's strict type-check covers what the READMEs promise another team.
 */
export const copyReadmeExamples = (app: InstalledApp, packed: ReadonlyArray<Packed>): ReadonlyArray<string> => {
  const folder = join(app.dir, "src", "readme")
  mkdirSync(folder, { recursive: true })
  const written: Array<string> = []
  for (const { name } of packed) {
    const readme = readFileSync(join(app.dir, "node_modules", ...name.split("/"), "README.md"), "utf8")
    const blocks = Array.from(readme.matchAll(/```ts\n([\s\S]*?)```/gu), ([, code]) => code!)
    blocks.forEach((code, index) => {
      const file = `${name.replace(/^@club\//u, "")}-${index + 1}.ts`
      // A module of its own, even when the example has no import.
      writeFileSync(join(folder, file), `${code}\nexport {}\n`)
      written.push(file)
    })
  }
  return written
}

export const listFiles = (dir: string) => readdirSync(dir)
