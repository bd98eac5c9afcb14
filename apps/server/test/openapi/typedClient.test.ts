import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import openapiTS, { astToString } from "openapi-typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ServerProcess } from "@club/test-support"
import { adminPassword, fetchDocument, startDocumentedServer } from "./support/servedDocument.ts"
import { repositoryRoot, runNode, temporaryFolder, typescriptCompiler } from "./support/tools.ts"

/**
 * A client generated from the served document by tools nobody here wrote: openapi-typescript
 * writes the types, a small program (client/program.ts) calls the server through openapi-fetch
 * with numeric ids and the document's named types. It must type-check under `tsc --strict` and
 * run to its end against the server.
 */
const clientSources = join(dirname(fileURLToPath(import.meta.url)), "client")
const folder = temporaryFolder("club-openapi-client-")
let server: ServerProcess

/** The packages the program imports, linked into its folder (it lives outside the workspace). */
const linkPackage = (name: string, from: string) => {
  const target = join(folder.path, "node_modules", name)
  mkdirSync(dirname(target), { recursive: true })
  symlinkSync(join(from, "node_modules", name), target, "dir")
}

beforeAll(async () => {
  server = await startDocumentedServer()
}, 120_000)
afterAll(async () => {
  await server?.stop()
  folder.remove()
})

describe("a typed client generated from /openapi.json (openapi-typescript + openapi-fetch)", () => {
  it("type-checks strict against the generated types, numeric ids and named schemas included, and runs against the server", async () => {
    const { document } = await fetchDocument(server)
    const types = astToString(await openapiTS(document as never))
    writeFileSync(join(folder.path, "api.d.ts"), types)
    // The named schemas are what the program's types are called.
    expect(types).toMatch(/\bSession: \{/u)
    expect(types).toMatch(/\bid: number;/u)
    copyFileSync(join(clientSources, "program.ts"), join(folder.path, "program.ts"))
    copyFileSync(join(clientSources, "tsconfig.json"), join(folder.path, "tsconfig.json"))
    writeFileSync(
      join(folder.path, "package.json"),
      JSON.stringify({ name: "club-openapi-client", private: true, type: "module" })
    )
    linkPackage("openapi-fetch", join(repositoryRoot, "apps", "server"))
    linkPackage("@types/node", repositoryRoot)

    const compiled = await runNode([typescriptCompiler, "-p", "tsconfig.json"], { cwd: folder.path })
    expect(compiled.stdout + compiled.stderr).toBe("")
    expect(compiled.code).toBe(0)

    const run = await runNode([join(folder.path, "dist", "program.js")], {
      cwd: folder.path,
      env: { CLUB_BASE_URL: `http://127.0.0.1:${server.port}`, CLUB_ADMIN_PASSWORD: adminPassword }
    })
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as {
      passed: number
      failed: Array<unknown>
      steps: Array<string>
    }
    expect(summary.failed, run.stderr).toEqual([])
    expect(summary.passed).toBe(7)
    expect(run.code).toBe(0)
  })
})
