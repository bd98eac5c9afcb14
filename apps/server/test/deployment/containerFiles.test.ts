import { temporaryTestDatabase, type TemporaryDatabase } from "@club/postgres-adapter/testing"
import { Ajv } from "ajv"
import { execFile, spawn } from "node:child_process"
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { validate } from "dockerfile-utils"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { http1 } from "../support/requests.ts"
import { serverNodeArguments, spawnServer, type ServerProcess, waitUntilLive } from "@club/test-support"

/**
 * The container files cannot be built here (no Docker daemon, no registry for base images), so
 * this checks what can be: the Dockerfile with a linter nobody here wrote, compose.yaml against the
 * Compose Specification's own JSON schema (compose-spec.json, from github.com/compose-spec/compose-spec,
 * Apache-2.0), and the image's runtime stage acted out: the server laid out by the Dockerfile's own
 * `pnpm deploy`, run as an unprivileged user from files it cannot write, probed by the Dockerfile's
 * HEALTHCHECK command and stopped by SIGTERM.
 */
const run = promisify(execFile)
const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const dockerfile = readFileSync(join(repo, "Dockerfile"), "utf8")
const compose = parse(readFileSync(join(repo, "compose.yaml"), "utf8")) as {
  services: Record<string, Record<string, unknown> & { environment?: Record<string, string> }>
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const instructions = dockerfile.replace(/\\\n/gu, " ").split("\n").filter((line) =>
  line.trim() !== "" && !line.startsWith("#")
)
const runtimeStage = instructions.slice(instructions.findLastIndex((line) => line.startsWith("FROM ")))
const jsonArgument = (keyword: string, stage: ReadonlyArray<string>) => {
  const line = stage.find((one) => one.startsWith(`${keyword} `))
  expect(line, `${keyword} in the runtime stage`).toBeDefined()
  return JSON.parse(line!.slice(line!.indexOf("["))) as Array<string>
}

describe("Dockerfile", () => {
  it("has nothing dockerfile-utils (the VS Code Docker extension's linter) reports; a broken one has", () => {
    expect(validate(dockerfile, {})).toEqual([])
    expect(validate("FROM node\nUSER\nHEALTHCHECK CMD\nENTRYPOINT node main.js\nENTRYPOINT [\"node\"]\n", {}).length)
      .toBeGreaterThan(0)
  })

  it("runs on the Node the workspace pins, as a user that is not root, with Node as process 1 (exec form, no shell)", () => {
    const pinned =
      (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { devDependencies: { node: string } })
        .devDependencies.node
    expect(dockerfile).toContain(`ARG NODE_IMAGE=node:${pinned}-bookworm-slim`)
    // pnpm checks the packages' engines against the same version.
    expect((parse(readFileSync(join(repo, "pnpm-workspace.yaml"), "utf8")) as { nodeVersion: string }).nodeVersion)
      .toBe(pinned)
    const user = runtimeStage.filter((line) => line.startsWith("USER ")).at(-1)
    expect(user).toBe("USER node")
    expect(jsonArgument("ENTRYPOINT", runtimeStage)).toEqual(["node", ...serverNodeArguments, "dist/main.js"])
    expect(runtimeStage.filter((line) => line.startsWith("CMD "))).toEqual([])
    expect(runtimeStage).toContain("VOLUME [\"/data\"]")
  })
})

describe("compose.yaml", () => {
  it("is valid by the Compose Specification's JSON schema", () => {
    const schema = JSON.parse(readFileSync(new URL("./compose-spec.json", import.meta.url), "utf8")) as object
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false })
    const check = ajv.compile(schema)
    expect(check(compose), JSON.stringify(check.errors, null, 2)).toBe(true)
    // The schema is a real check: a service with a misspelt key is refused.
    expect(check({ services: { server: { imagee: "x" } } })).toBe(false)
  })

  it("runs the server on its PostgreSQL once healthy, read-only, with secrets required from the environment", () => {
    const server = compose.services["server"]!
    expect(server["read_only"]).toBe(true)
    expect(server["depends_on"]).toEqual({ postgres: { condition: "service_healthy" } })
    expect(server.environment?.["DATABASE_URL"]).toMatch(/^postgres:\/\/.*@postgres:5432\//u)
    // No secret has a default a deployment could forget to change.
    for (const name of ["JWT_SECRET", "ADMIN_PASSWORD"]) expect(server.environment?.[name]).toMatch(/^\$\{[A-Z_]+:\?/u)
  })
})

const isRoot = process.getuid?.() === 0
/** An unprivileged user of every Debian system, as `node` is in the image. */
const nobody = { uid: 65534, gid: 65534 }

describe.skipIf(!isRoot)("the image's runtime stage, acted out: the laid-out server run as an unprivileged user", {
  timeout: 300_000
}, () => {
  const work = mkdtempSync(join(tmpdir(), "club-image-"))
  const app = join(work, "app")
  const running: Array<ServerProcess> = []
  let database: TemporaryDatabase | undefined

  beforeAll(async () => {
    chmodSync(work, 0o755)
    // The Dockerfile's own layout command, with /app in another place.
    const deploy = /npx --yes (pnpm@[\d.]+) (--filter @club\/server deploy --prod --legacy) \/app/u.exec(dockerfile)
    expect(deploy).not.toBeNull()
    await run("npx", ["--yes", deploy![1]!, ...deploy![2]!.split(" "), app], { cwd: repo, maxBuffer: 64 * 1024 * 1024 })
    database = await temporaryTestDatabase()
  }, 300_000)
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()))
    await database?.drop()
    rmSync(work, { recursive: true, force: true })
  })

  /** The entries of the temporary folder owned by the unprivileged user. */
  const temporaryOfNobody = () =>
    readdirSync(tmpdir()).filter((name) =>
      statSync(join(tmpdir(), name), { throwIfNoEntry: false })?.uid === nobody.uid
    )

  /** Files and folders under `dir` owned by `uid`. */
  const ownedBy = (dir: string, uid: number): Array<string> =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => existsSync(path) && statSync(path).uid === uid)

  const start = async (env: Record<string, string>) => {
    const server = await spawnServer({ HOST: "127.0.0.1", ...env }, { main: join(app, "dist", "main.js"), ...nobody })
    running.push(server)
    await waitUntilLive(server)
    return server
  }

  const healthcheck = (port: number) => {
    const command = jsonArgument("HEALTHCHECK", runtimeStage)
    return new Promise<number | null>((resolve) => {
      const [program, ...args] = command
      const child = spawn(program === "node" ? process.execPath : program!, args, {
        env: { PORT: String(port) },
        stdio: "ignore"
      })
      child.once("exit", (code) => resolve(code))
    })
  }

  it("lays out the server with its production dependencies only: no test tools, no TypeScript", () => {
    expect(existsSync(join(app, "dist", "main.js"))).toBe(true)
    const installed = readdirSync(join(app, "node_modules", ".pnpm"))
    for (const tool of ["vitest", "typescript", "@grpc+grpc-js", "fast-check", "tsup"]) {
      expect(installed.filter((name) => name.startsWith(`${tool}@`))).toEqual([])
    }
  })

  it("on the embedded database, writes only into DATA_DIR; is healthy by the HEALTHCHECK command; exits 0 on SIGTERM", async () => {
    const temporaryBefore = temporaryOfNobody()
    const data = join(work, "data")
    mkdirSync(data)
    chownSync(data, nobody.uid, nobody.gid)
    const server = await start({ DATA_DIR: data })
    expect((await http1(server.port, "/health/ready")).status).toBe(200)
    expect(await healthcheck(server.port)).toBe(0)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    expect(await healthcheck(server.port)).toBe(1)
    expect(ownedBy(data, nobody.uid).length).toBeGreaterThan(0)
    expect(ownedBy(app, nobody.uid)).toEqual([])
    expect(temporaryOfNobody()).toEqual(temporaryBefore)
  })

  it("with DATABASE_URL and JWT_SECRET, writes no file at all (a read-only root filesystem), and serves", async (context) => {
    if (database === undefined) return context.skip()
    const temporaryBefore = temporaryOfNobody()
    const unwritable = join(work, "read-only")
    mkdirSync(unwritable, { mode: 0o555 })
    const server = await start({
      DATA_DIR: join(unwritable, "data"),
      DATABASE_URL: database.urlVia(database.server.host, database.server.port),
      JWT_SECRET: "a-secret-of-at-least-32-bytes-for-the-image-test",
      ADMIN_PASSWORD: "image-admin-password"
    })
    const login = await fetch(`http://127.0.0.1:${server.port}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "admin", password: "image-admin-password" })
    })
    expect(login.status).toBe(200)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    expect(readdirSync(unwritable)).toEqual([])
    expect(ownedBy(app, nobody.uid)).toEqual([])
    expect(temporaryOfNobody()).toEqual(temporaryBefore)
  })
})
