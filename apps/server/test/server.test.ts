import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import * as Net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { h2c, http1, sleep } from "./support/requests.ts"
import { messageOf, type ServerProcess, spawnServer, startServer } from "@club/test-support"

const running: Array<ServerProcess> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()))
})
const start = async (env: Record<string, string>) => {
  const server = await startServer(env)
  running.push(server)
  return server
}

const dataDirs: Array<string> = []
afterAll(() => Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))))
const freshDataDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "club-server-"))
  dataDirs.push(dir)
  return dir
}

const login = async (port: number, password: string) => {
  const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "admin", password })
  })
  return ((await response.json()) as { token: string }).token
}

const postJson = async (port: number, path: string, token: string, body: unknown) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

const firstAdminLines = (server: ServerProcess) =>
  server.logs().filter((line) => line.annotations["event"] === "first-admin-created")

// Each start opens embedded PostgreSQL (seconds, more on a busy machine).
describe("the built server", { timeout: 180_000 }, () => {
  it("starts on an empty DATA_DIR and answers the health probes", async () => {
    const dataDir = await freshDataDir()
    const server = await start({ DATA_DIR: dataDir })
    expect(await http1(server.port, "/health/live")).toMatchObject({ status: 200, body: "{\"status\":\"ok\"}" })
    const ready = await http1(server.port, "/health/ready")
    expect(ready).toMatchObject({ status: 200, body: "{\"status\":\"ready\"}" })
    expect(ready.headers["content-type"]).toBe("application/json")
    const listening = server.logs().find((line) => line.annotations["event"] === "listening")
    expect(messageOf(listening!)).toBe(
      `Listening on http://127.0.0.1:${server.port} (HTTP/1.1 and h2c); database: embedded PostgreSQL at ${dataDir}`
    )
    expect((await stat(join(dataDir, "jwt-secret"))).mode & 0o777).toBe(0o600)
    // Once ready, where to go next, on standard error (apart from the JSON log), once.
    const base = `http://127.0.0.1:${server.port}`
    expect(server.errorOutput.filter((line) => line === "Club Training Service is ready")).toHaveLength(1)
    expect(server.errorOutput).toEqual(expect.arrayContaining([
      `  API:            ${base}/`,
      `  API reference:  ${base}/docs`,
      `  OpenAPI:        ${base}/openapi.json`,
      `  Health:         ${base}/health/ready`,
      `  Metrics:        ${base}/metrics`,
      `  Data:           embedded PostgreSQL in ${dataDir}`
    ]))
  })

  it("answers over HTTP/2 cleartext on the same port", async () => {
    const server = await start({ DATA_DIR: await freshDataDir() })
    expect(await h2c(server.port, "/health/live")).toMatchObject({ status: 200, body: "{\"status\":\"ok\"}" })
    expect(await h2c(server.port, "/health/ready")).toMatchObject({ status: 200, body: "{\"status\":\"ready\"}" })
  })

  it("writes JSON log lines on stdout, and the generated admin password only on stderr, on a line of its own, whatever LOG_LEVEL", async () => {
    const server = await start({ DATA_DIR: await freshDataDir(), LOG_LEVEL: "error" })
    expect(server.logs().filter((line) => line.level === "INFO")).toEqual([])
    const stdout = server.output.filter((line) => line.trim() !== "" && !server.errorOutput.includes(line))
    for (const line of stdout) expect(() => JSON.parse(line), line).not.toThrow()
    // The JSON line says that a password was printed, and where, without it.
    const [created, ...others] = firstAdminLines(server)
    expect(others).toEqual([])
    expect(messageOf(created!)).toMatch(/generated password, printed once on standard error/u)
    const passwordLines = server.errorOutput.filter((line) => /^ {2}password: /u.test(line))
    expect(passwordLines).toHaveLength(1)
    const password = /^ {2}password: ([A-Za-z0-9_-]{24})$/u.exec(passwordLines[0]!)?.[1]
    expect(password).toBeDefined()
    expect(server.output.filter((line) => line.includes(password!))).toEqual(passwordLines)
    expect((await login(server.port, password!)).length).toBeGreaterThan(20)
  })

  it("keeps its data across a restart on the same DATA_DIR: no second admin, the same token secret, the same records", async () => {
    const dataDir = await freshDataDir()
    const first = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: "restart-admin-password" })
    expect(firstAdminLines(first)).toHaveLength(1)
    const secret = await readFile(join(dataDir, "jwt-secret"), "utf8")
    const token = await login(first.port, "restart-admin-password")
    const created = await postJson(first.port, "/coaches/create", token, { name: "Kept across restarts" })
    expect(created.status).toBe(201)
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const second = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: "restart-admin-password" })
    expect((await http1(second.port, "/health/ready")).status).toBe(200)
    expect(firstAdminLines(second)).toEqual([])
    expect(second.output.join("\n")).not.toMatch(/password:/)
    expect(await readFile(join(dataDir, "jwt-secret"), "utf8")).toBe(secret)
    // A token issued before the restart still works: the secret and the user were both kept.
    const coach = await fetch(`http://127.0.0.1:${second.port}/coaches/${(created.body as { id: number }).id}`, {
      headers: { authorization: `Bearer ${token}` }
    })
    expect(await coach.json()).toEqual({ id: (created.body as { id: number }).id, name: "Kept across restarts" })
  })

  it("creates the first admin from ADMIN_NAME and ADMIN_PASSWORD without logging the password", async () => {
    const server = await start({ DATA_DIR: "memory://", ADMIN_NAME: "head-coach", ADMIN_PASSWORD: "s3cret-enough!" })
    const [created] = firstAdminLines(server)
    expect(created?.annotations["adminName"]).toBe("head-coach")
    expect(created?.level).toBe("INFO")
    expect(server.output.join("\n")).not.toContain("s3cret-enough!")
    const listening = server.logs().find((line) => line.annotations["event"] === "listening")
    expect(messageOf(listening!)).toContain("database: embedded PostgreSQL in memory")
  })

  it("exits 0 soon after SIGTERM, without waiting for an idle or half-sent connection", async () => {
    const server = await start({ DATA_DIR: await freshDataDir() })
    const idle = Net.connect(server.port, "127.0.0.1")
    idle.on("error", () => undefined)
    const halfSent = Net.connect(server.port, "127.0.0.1", () => halfSent.write("GET /health/live HTTP/1.1\r\n"))
    halfSent.on("error", () => undefined)
    await sleep(200)
    const startedAt = Date.now()
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    expect(Date.now() - startedAt).toBeLessThan(5_000)
    idle.destroy()
    halfSent.destroy()
  })

  it("refuses to start on an invalid setting, naming it", async () => {
    for (
      const [setting, value] of [
        ["LOG_LEVEL", "verbose"],
        // HS256 with a secret shorter than its hash can be guessed offline from any token.
        ["JWT_SECRET", "s".repeat(31)],
        ["MAX_CONNECTIONS", "0"],
        ["REQUEST_TIMEOUT_MS", "500"]
      ] as const
    ) {
      const server = await spawnServer({ DATA_DIR: "memory://", [setting]: value })
      const { code } = await server.exited
      expect(code, setting).not.toBe(0)
      expect(server.output.join("\n"), setting).toContain(setting)
    }
  })
})
