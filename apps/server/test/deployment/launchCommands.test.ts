import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { serverNodeArguments } from "@club/test-support"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const startScript = (packageJson: string) =>
  (JSON.parse(readFileSync(join(repo, packageJson), "utf8")) as { scripts: { start: string } }).scripts.start

// apps/server/nodeArguments.json declares them once; the Dockerfile's ENTRYPOINT is checked in
// containerFiles.test.ts, and the tests' and the bench's servers read the file itself.
describe("every launch of the server gives Node the same arguments", () => {
  it("declares V8's allocation-site pretenuring off and its young generation's bound, as the server is measured (the source maps are the server's own business: main.ts)", () => {
    expect(serverNodeArguments).toEqual([
      "--no-allocation-site-pretenuring",
      "--max-semi-space-size=16"
    ])
  })

  it("the workspace's start (its launcher reads the file) and the server package's start", () => {
    expect(startScript("package.json")).toBe("node scripts/start.mjs")
    expect(readFileSync(join(repo, "scripts/start.mjs"), "utf8")).toContain(
      `join(root, "apps", "server", "nodeArguments.json")`
    )
    expect(startScript("apps/server/package.json")).toBe(`node ${serverNodeArguments.join(" ")} dist/main.js`)
  })
})
