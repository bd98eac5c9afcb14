// The file-naming rule (docs/ADDING.md, "Naming files"), the half oxlint cannot check: a source
// file named in PascalCase exports a PascalCase name (a class, a schema, a service, a type) or is a
// service's module (its `layer`), one named in camelCase exports a camelCase name (a function or a value). oxlint's
// unicorn/filename-case checks the other half, that every name is one of the two cases (.oxlintrc.json).
// Run by `pnpm lint`; `node scripts/check-file-names.mjs [folder...]` checks other folders.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { basename, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

// Every package, the server and the bench.
const checked = [
  "packages/core",
  "packages/http-adapter",
  "packages/connect-adapter",
  "apps/server",
  "packages/postgres-adapter",
  "packages/contract",
  "packages/client-sdk",
  "packages/crypto-adapter",
  "packages/test-support",
  "bench"
]

/**
 * Files whose name the rule does not decide: entry points (`index.ts`), tests (named after what they
 * test), generated code, declaration files (named after the module they declare) and migrations
 * (`0001_create_people.ts`: the name is the migration's, recorded in each database it ran on).
 */
const exempt = (path) =>
  /(^|\/)index\.ts$|\.test\.ts$|\.gen\.ts$|\.d\.ts$|\/src\/gen\/|\/migrations\/\d{4}_[a-z0-9_]+\.ts$/u.test(path)

const sources = (folder) =>
  readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split("/").includes("node_modules") && !path.split("/").includes("dist"))

/** The names a module exports itself (declarations, export lists with their aliases), not `export *`. */
export const exportedNames = (text) => {
  const declared = [
    ...text.matchAll(
      /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:const|let|var|class|function\*?|async\s+function|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gmu
    )
  ].map((match) => match[1])
  const listed = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gmu)].flatMap((match) =>
    match[1].split(",").map((part) => part.trim().replace(/^type\s+/u, "").split(/\s+as\s+/u).at(-1)).filter(Boolean)
  )
  const namespaces = [...text.matchAll(/^export\s+\*\s+as\s+([A-Za-z_$][\w$]*)/gmu)].map((match) => match[1])
  return [...declared, ...listed, ...namespaces]
}

/** What is wrong with the name of the file at `path` holding `text`, or undefined. */
export const misnamed = (path, text) => {
  const stem = basename(path).split(".")[0]
  const names = exportedNames(text)
  if (names.length === 0) return undefined // a program, or a module of re-exports
  const pascal = /^[A-Z]/u.test(stem)
  // A module that builds a service and is imported as its namespace (`import * as HmacCursorSeal`,
  // then `HmacCursorSeal.layer`) is named after the service.
  if (pascal && !names.some((name) => /^[A-Z]/u.test(name) || name === "layer")) {
    return `exports no PascalCase name (${names.join(", ")}): name the file in camelCase`
  }
  if (!pascal && !names.some((name) => /^[a-z]/u.test(name))) {
    return `exports only PascalCase names (${names.join(", ")}): name the file in PascalCase`
  }
  return undefined
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : checked
  const findings = folders
    .flatMap((folder) => ["src", "test"].map((part) => join(folder, part)))
    .filter((folder) => existsSync(join(root, folder)))
    .flatMap(sources)
    .filter((path) => !exempt(path))
    .flatMap((path) => {
      const finding = misnamed(path, readFileSync(join(root, path), "utf8"))
      return finding === undefined ? [] : [`${path}: ${finding}`]
    })
  for (const finding of findings) console.error(finding)
  if (findings.length > 0) {
    console.error(`${findings.length} file name(s) break the naming rule (docs/ADDING.md, "Naming files")`)
    process.exit(1)
  }
}
