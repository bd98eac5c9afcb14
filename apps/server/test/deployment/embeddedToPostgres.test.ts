import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { execFile } from "node:child_process"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { type ServerProcess, spawnServer, waitUntilLive } from "@club/test-support"
import { type Club, setUpClub } from "@club/test-support/rest"
import { send } from "../rest/support/http.ts"

const database = await temporaryTestDatabase({ prefix: "club_import" })
const folder = await mkdtemp(join(tmpdir(), "club-transfer-"))
afterAll(async () => {
  await database?.drop()
  await rm(folder, { recursive: true, force: true })
})

const dataTransferJs = fileURLToPath(new URL("../../dist/dataTransfer.js", import.meta.url))
/** `pnpm db:export` / `db:import` after their build step: the command itself, as the scripts run it. */
const dataTransfer = (command: "export" | "import", file: string, env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [dataTransferJs, command, file], {
    env: { ...process.env, ...env },
    timeout: 300_000
  })

const environment = {
  ADMIN_NAME: "head-admin",
  ADMIN_PASSWORD: "admin-password-0",
  JWT_SECRET: "transfer-secret-transfer-secret-0123456789",
  LOG_LEVEL: "warn"
}

/** A server, live; an embedded cluster's first start takes long on a busy machine. */
const startServer = async (env: Record<string, string>) => {
  const server = await spawnServer(env)
  await waitUntilLive(server, 300_000).catch(async (error: unknown) => {
    await server.stop()
    throw error
  })
  return server
}

const clubOn = (server: ServerProcess) =>
  setUpClub((method, path, options) => send(`http://127.0.0.1:${server.port}`, method, path, options))

/** What a club's members see: every record type the service keeps, read through the API. */
const everything = async (club: Club, ids: { series: number; session: number }) => {
  const read = async (caller: Club["admin"], method: "get" | "post", path: string) => {
    const reply = await caller[method](path)
    expect(reply.status, `${path}: ${reply.text}`).toBe(200)
    return reply.body
  }
  return {
    users: await read(club.admin, "get", "/users/all"),
    athletes: await read(club.admin, "post", "/athletes/all"),
    coaches: await read(club.admin, "get", "/coaches/all"),
    sessions: await read(club.coach, "get", "/session/all"),
    activities: await read(club.coach, "get", "/activite/all"),
    // Its horizon is moved forward by each start's extension worker, wherever the data lives.
    series: { ...(await read(club.coach, "get", `/planning/series/${ids.series}`) as object), expandedUntil: "moved" },
    replies: await read(club.coach, "get", `/attendance/sessions/${ids.session}/replies`)
  }
}

describe.skipIf(database === undefined)("from the embedded database to PostgreSQL: db:export, db:import", {
  timeout: 900_000
}, () => {
  it("a server started on the imported database answers the same data, logins included, and creates after it", async () => {
    const dataDir = join(folder, "data")
    const embedded = await startServer({ ...environment, DATA_DIR: dataDir })
    let ids: { series: number; session: number }
    let before: Awaited<ReturnType<typeof everything>>
    try {
      // setUpClub creates a coach, an athlete and their users, and logs each in.
      const club = await clubOn(embedded)
      const session = await club.coach.post("/session/create", {
        name: "Before the move",
        athleteIds: [club.athleteId]
      })
      expect(session.status, session.text).toBe(201)
      const sessionId = (session.body as { id: number }).id
      expect((await club.coach.post("/activite/create", { name: "Warm-up", sessionId })).status).toBe(201)
      const series = await club.coach.post("/planning/series", {
        name: "Tuesday track",
        coachId: club.coachId,
        athleteIds: [club.athleteId],
        duree: 60,
        // Within the planning horizon, which a series must start in.
        start: `${new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10)}T18:00:00`,
        rrule: "FREQ=WEEKLY;COUNT=3"
      })
      expect(series.status, series.text).toBe(201)
      const reply = await club.athlete.put(`/attendance/athletes/${club.athleteId}/replies/${sessionId}`, {
        answer: "maybe",
        reason: "exams"
      })
      expect(reply.status, reply.text).toBe(200)
      ids = { series: (series.body as { id: number }).id, session: sessionId }
      before = await everything(club, ids)
    } finally {
      expect(await embedded.stop()).toEqual({ code: 0, signal: null })
    }

    const file = join(folder, "club.sql")
    await dataTransfer("export", file, { DATA_DIR: dataDir })
    // It holds password hashes.
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    await dataTransfer("import", file, { DATABASE_URL: database!.url })

    const onServer = await startServer({
      ...environment,
      DATABASE_URL: database!.url,
      DATA_DIR: join(folder, "unused")
    })
    try {
      // The same people log in with the same passwords, and read the same data.
      const club = await loggedInAgain(onServer)
      expect(await everything(club, ids!)).toEqual(before!)
      // The sequences went with the rows: a new session takes a new id.
      const created = await club.coach.post("/session/create", { name: "After the move" })
      expect(created.status, created.text).toBe(201)
      const sessionIds = (before!.sessions as Array<{ id: number }>).map((s) => s.id)
      expect(sessionIds).not.toContain((created.body as { id: number }).id)
    } finally {
      await onServer.stop()
    }

    // A second import into the same database is refused whole: nothing doubled.
    await expect(dataTransfer("import", file, { DATABASE_URL: database!.url })).rejects.toThrow(/already holds rows/u)
  })
})

/** The club's admin and coach, logged in on another server (their users exist already). */
const loggedInAgain = async (server: ServerProcess): Promise<Club> => {
  const login = async (name: string, password: string) => {
    const reply = await send(`http://127.0.0.1:${server.port}`, "POST", "/auth/login", { json: { name, password } })
    expect(reply.status, `login of ${name}: ${reply.text}`).toBe(200)
    return (reply.body as { token: string }).token
  }
  const admin = await login("head-admin", "admin-password-0")
  const coach = await login("coach", "coach-password-0")
  const caller = (token: string) => ({
    get: (path: string) => send(`http://127.0.0.1:${server.port}`, "GET", path, { token }),
    post: (path: string, json?: unknown) =>
      send(`http://127.0.0.1:${server.port}`, "POST", path, json === undefined ? { token } : { token, json })
  })
  return { admin: caller(admin), coach: caller(coach) } as unknown as Club
}
