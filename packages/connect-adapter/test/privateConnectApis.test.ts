import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * connect-es marks many exports of its public entry points `@private` ("Internal code, does not
 * follow semantic versioning"). The unary shortcut and its neighbours use some of them; a path rule
 * (dependency-cruiser) cannot see that, so this test keeps the list: a newly used `@private` name
 * fails here until it is added below and to patches/README.md ("Private APIs we use"), and a
 * name no longer used must leave the list. Check each listed name on every connect upgrade.
 */
const allowed = [
  "codeToHttpStatus",
  "compressionNegotiate",
  "createMethodSerializationLookup",
  "encodeEnvelope",
  "envelopeCompress",
  "errorToJsonBytes",
  "grpcStatusOk",
  "limitSerialization",
  "parseContentType",
  "setTrailerStatus",
  "trailerFlag",
  "trailerSerialize",
  "validateUniversalHandlerOptions"
]

const connectRoot = (() => {
  const entry = createRequire(import.meta.url).resolve("@connectrpc/connect")
  return entry.slice(0, entry.lastIndexOf("/dist/"))
})()

const filesUnder = (folder: string, suffix: string): Array<string> =>
  readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name))

/** The names connect's declarations mark `@private`: the declaration that follows each such comment. */
const privateNames = new Set(
  filesUnder(join(connectRoot, "dist", "esm"), ".d.ts").flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(
        /@private[^]*?\*\/\s*export declare (?:function|const|class|let) (\w+)/g
      )
    ].map((match) => match[1]!)
  )
)

const sources = join(dirname(fileURLToPath(import.meta.url)), "..", "src")

/** Each value or type imported from @connectrpc/connect or one of its subpaths by connect-adapter's sources. */
const importedNames = new Set(
  filesUnder(sources, ".ts").flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(
        /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@connectrpc\/connect(?:\/[\w-]+)?"/g
      )
    ]
      .flatMap((match) =>
        match[1]!.split(",").map((part) => part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!).filter(Boolean)
      )
  )
)

describe("connect-es exports marked @private that connect-adapter uses", () => {
  it("finds connect's @private declarations (the scan still reads them)", () => {
    expect(privateNames.has("createMethodSerializationLookup")).toBe(true)
    expect(privateNames.has("setTrailerStatus")).toBe(true)
  })

  it("are exactly the documented list", () => {
    const used = [...importedNames].filter((name) => privateNames.has(name)).sort()
    expect(used).toEqual([...allowed].sort())
  })
})
