// Packs every publishable package of the workspace (packages/* without `"private": true`) with
// `pnpm pack`, which writes the versions of workspace dependencies in place of `workspace:*`, into
// a folder (the first argument, default ./packed), and prints what it wrote as JSON:
// `[{ "name": "@club/core", "version": "0.2.0", "tarball": "/abs/path/club-core-0.2.0.tgz" }, ...]`.
// Build first (`pnpm build`): a tarball holds `dist`.
import { execFileSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const destination = resolve(process.argv[2] ?? join(root, "packed"))
rmSync(destination, { recursive: true, force: true })
mkdirSync(destination, { recursive: true })

const packagesDir = join(root, "packages")
const publishable = readdirSync(packagesDir)
  .map((name) => ({
    dir: join(packagesDir, name),
    manifest: JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8"))
  }))
  .filter(({ manifest }) => manifest.private !== true)

// pnpm itself when a pnpm script runs this (its path is in npm_execpath), else the pinned pnpm through npx.
const pnpm = process.env["npm_execpath"]?.includes("pnpm") === true
  ? [process.execPath, [process.env["npm_execpath"]]]
  : ["npx", ["--yes", "pnpm@10.34.8"]]

const packed = publishable.map(({ dir, manifest }) => {
  execFileSync(pnpm[0], [...pnpm[1], "pack", "--pack-destination", destination], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"]
  })
  const file = `${manifest.name.replace(/^@/u, "").replace("/", "-")}-${manifest.version}.tgz`
  return { name: manifest.name, version: manifest.version, tarball: join(destination, file) }
})
console.log(JSON.stringify(packed, null, 2))
