import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * connect-es marks many exports of its public entry points `@private` ("Internal code, does not
 * follow semantic versioning"). A path rule (dependency-cruiser's `no-dependency-internals`) cannot
 * see that mark, so this test reads it: no source or test of the workspace imports a name connect
 * or connect-node declares `@private` (patches/README.md, "Private APIs").
 */

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")

const packageRoot = (name: string) => {
  const entry = createRequire(import.meta.url).resolve(name)
  return entry.slice(0, entry.lastIndexOf("/dist/"))
}

const filesUnder = (folder: string, suffix: string): Array<string> =>
  readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name))

/** The names a package's declarations mark `@private`: the declaration that follows each such comment. */
const privateNamesOf = (name: string) =>
  filesUnder(join(packageRoot(name), "dist", "esm"), ".d.ts").flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(
        /@private[^]*?\*\/\s*export declare (?:function|const|class|let) (\w+)/g
      )
    ].map((match) => match[1]!)
  )

const privateNames = new Set([...privateNamesOf("@connectrpc/connect"), ...privateNamesOf("@connectrpc/connect-node")])

/** Every TypeScript file of the workspace's packages, apps and bench, but generated and built ones. */
const workspaceFiles = ["packages", "apps", "bench", "examples"].flatMap((folder) =>
  filesUnder(join(workspaceRoot, folder), ".ts").filter((file) =>
    !/\/(node_modules|dist|gen)\//.test(file.slice(workspaceRoot.length))
  )
)

/** Each value or type a file imports from @connectrpc/connect, @connectrpc/connect-node or one of their subpaths. */
const importedNames = (source: string) =>
  [...source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@connectrpc\/connect(?:-node)?(?:\/[\w-]+)?"/g)]
    .flatMap((match) =>
      match[1]!.split(",").map((part) => part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!).filter(Boolean)
    )

describe("connect-es exports marked @private", () => {
  it("are found in connect's declarations (the scan still reads them)", () => {
    expect(privateNames.has("createMethodSerializationLookup")).toBe(true)
    expect(privateNames.has("setTrailerStatus")).toBe(true)
  })

  it("finds the imports it checks (the scan still reads the workspace)", () => {
    const names = workspaceFiles.flatMap((file) => importedNames(readFileSync(file, "utf8")))
    expect(names).toContain("connectNodeAdapter")
    expect(names).toContain("createClient")
  })

  it("are imported nowhere in the workspace", () => {
    const used = workspaceFiles.flatMap((file) =>
      importedNames(readFileSync(file, "utf8"))
        .filter((name) => privateNames.has(name))
        .map((name) => `${file.slice(workspaceRoot.length + 1)}: ${name}`)
    )
    expect(used).toEqual([])
  })
})
