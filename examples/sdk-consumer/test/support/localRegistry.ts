import { execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { freePort } from "@club/test-support"
import { node, type Packed } from "./installedApp.ts"

const run = promisify(execFile)
const verdaccio = fileURLToPath(new URL("../../node_modules/verdaccio/bin/verdaccio", import.meta.url))

export interface LocalRegistry {
  readonly url: string
  /** An npm user config that holds the registry's token (never the user's own ~/.npmrc). */
  readonly npmrc: string
  /**
   * An npm cache of its own: what another test packed and installed under the same name and version
   * (installedPackages.test.ts) is never taken from the machine's cache in place of the registry's.
   */
  readonly cache: string
  /** `npm publish` of one tarball to it, as a release would publish the package to the public registry. */
  readonly publish: (packed: Packed) => Promise<void>
  readonly stop: () => Promise<void>
}

/** The registry npm is configured with here, which the local one proxies for every package but `@club/*`. */
const configuredRegistry = async () =>
  (await run("npm", ["config", "get", "registry"], { encoding: "utf8" })).stdout.trim()

/**
 * A verdaccio on a free loopback port, with its storage in a temp folder: `@club/*` only from what
 * is published to it (never from the uplink, so a missing package fails as it would on the public
 * registry before the first release), everything else through the configured npm registry.
 */
export const startLocalRegistry = async (): Promise<LocalRegistry> => {
  const dir = mkdtempSync(join(tmpdir(), "club-registry-"))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const uplink = await configuredRegistry()
  writeFileSync(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "uplinks:",
      "  upstream:",
      `    url: ${uplink}`,
      "    timeout: 60s",
      "packages:",
      "  '@club/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    proxy: upstream",
      "web:",
      "  enable: false",
      "log: { type: stdout, format: json, level: warn }",
      ""
    ].join("\n")
  )
  const child = spawn(node, [verdaccio, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM")
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio exited: ${output}`)
      const ready = await fetch(`${url}-/ping`).then((response) => response.ok, () => false)
      if (ready) break
      if (Date.now() > deadline) throw new Error(`verdaccio did not answer within 60 s: ${output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // A user of its own (htpasswd adds one on the first `adduser`), whose token publishes.
    const created = await fetch(`${url}-/user/org.couchdb.user:club-release`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "club-release", password: "club-release-password" })
    })
    const { token } = (await created.json()) as { token?: string }
    if (!created.ok || token === undefined) throw new Error(`verdaccio refused the user: ${created.status}`)
    const npmrc = join(dir, "npmrc")
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`)
    const publish = async ({ tarball }: Packed) => {
      await run("npm", ["publish", tarball, "--registry", url, "--userconfig", npmrc, "--loglevel=error"], {
        cwd: dir,
        env: { ...process.env, npm_config_userconfig: npmrc }
      })
    }
    return { url, npmrc, cache: join(dir, "npm-cache"), publish, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
