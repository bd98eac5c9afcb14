import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type InstalledApp, installFromRegistry, node, type Packed, packPackages } from "./support/installedApp.ts"
import { type LocalRegistry, startLocalRegistry } from "./support/localRegistry.ts"
import { ADMIN_PASSWORD, type RunningServer, startServer } from "./support/startServer.ts"

const packFolder = mkdtempSync(join(tmpdir(), "club-packed-"))
let packed: ReadonlyArray<Packed>
let registry: LocalRegistry
let server: RunningServer
let app: InstalledApp | undefined

beforeAll(async () => {
  ;[packed, registry, server] = await Promise.all([packPackages(packFolder), startLocalRegistry(), startServer()])
}, 300_000)
afterAll(async () => {
  app?.remove()
  await Promise.all([server?.stop(), registry?.stop()])
  rmSync(packFolder, { recursive: true, force: true })
})

const dependenciesOf = (dir: string, name: string) =>
  (JSON.parse(readFileSync(join(dir, "node_modules", ...name.split("/"), "package.json"), "utf8")) as {
    dependencies?: Record<string, string>
  }).dependencies ?? {}

describe(
  "the README's install from a registry: every public package published, then `npm install @club/client-sdk effect`",
  {
    timeout: 600_000
  },
  () => {
    it("before @club/contract is published, the SDK does not install from the registry (E404), as the README warns", async () => {
      const sdk = packed.find((one) => one.name === "@club/client-sdk")!
      await registry.publish(sdk)
      await expect(installFromRegistry(registry)).rejects.toThrow(/E404[\s\S]*@club%2fcontract|@club\/contract/u)
    })

    it("with every public package published, installs in a fresh app, type-checks strict and runs both faces against the server", async () => {
      for (const one of packed.filter((one) => one.name !== "@club/client-sdk")) await registry.publish(one)
      app = await installFromRegistry(registry)
      // What npm brought from the local registry: the SDK, the contract and the core it needs, one effect.
      expect(dependenciesOf(app.dir, "@club/client-sdk")).toHaveProperty("@club/contract")
      expect(dependenciesOf(app.dir, "@club/contract")).toHaveProperty("@club/core")
      const lock = JSON.parse(readFileSync(join(app.dir, "package-lock.json"), "utf8")) as {
        packages: Record<string, { resolved?: string }>
      }
      for (const name of ["@club/client-sdk", "@club/contract", "@club/core"]) {
        expect(lock.packages[`node_modules/${name}`]?.resolved).toMatch(new RegExp(`^${registry.url}`, "u"))
      }
      await app.exec(node, [
        join(app.dir, "node_modules", "typescript", "bin", "tsc"),
        "-p",
        "tsconfig.json",
        "--strict"
      ])
      const output = await app.exec(node, ["dist/sdkOnly.js"], {
        CLUB_BASE_URL: server.baseUrl,
        CLUB_ADMIN_PASSWORD: ADMIN_PASSWORD
      }).catch((error: Error) => error.message)
      const summary = JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as { passed: number; failed: Array<unknown> }
      expect(summary.failed).toEqual([])
      expect(summary.passed).toBeGreaterThanOrEqual(3)
    })
  }
)
