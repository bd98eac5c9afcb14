import { type Caller, callerWith, type Reply, send } from "../../rest/support/http.ts"
import { adminName, adminPassword } from "./Deployment.ts"

export type Role = "ADMIN" | "COACH" | "ATHLETE"

/** The users a test acts as: the first admin, and a coach and an athlete user linked to their records. */
export interface Principals {
  readonly token: Record<Role, string>
  readonly userId: Record<Role, number>
  readonly password: Record<Role, string>
  readonly coachId: number
  readonly athleteId: number
  readonly as: (role: Role | "none", baseUrl?: string) => Caller
}

export const urlOf = (port: number) => `http://127.0.0.1:${port}`

export const expectStatus = (reply: Reply, status: number, what: string) => {
  if (reply.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${reply.status} ${reply.text.slice(0, 300)}`)
  }
  return reply
}

export const login = async (baseUrl: string, name: string, password: string): Promise<string> => {
  const reply = expectStatus(
    await send(baseUrl, "POST", "/auth/login", { token: null, json: { name, password } }),
    200,
    `login of ${name}`
  )
  return (reply.body as { token: string }).token
}

/** Creates the coach and athlete users (names suffixed with `tag`, so that a database can hold several sets). */
export const setUpPrincipals = async (baseUrl: string, tag = ""): Promise<Principals> => {
  const adminToken = await login(baseUrl, adminName, adminPassword)
  const admin = callerWith((method, path, options) => send(baseUrl, method, path, options), adminToken)
  const coach = expectStatus(await admin.post("/coaches/create", { name: `Coach${tag}` }), 201, "coach").body as {
    id: number
  }
  const athlete = expectStatus(
    await admin.post("/athletes/create", { name: `Athlete${tag}`, categorie: "Senior", niveau: "A" }),
    201,
    "athlete"
  )
    .body as { id: number }
  const password = { ADMIN: adminPassword, COACH: `coach-password${tag}-0`, ATHLETE: `athlete-password${tag}-0` }
  const coachUser = expectStatus(
    await admin.post("/users/create", {
      name: `coach${tag}`,
      role: "COACH",
      password: password.COACH,
      coachId: coach.id
    }),
    201,
    "coach user"
  ).body as { id: number }
  const athleteUser = expectStatus(
    await admin.post("/users/create", {
      name: `athlete${tag}`,
      role: "ATHLETE",
      password: password.ATHLETE,
      athleteId: athlete.id
    }),
    201,
    "athlete user"
  ).body as { id: number }
  const me = expectStatus(await admin.get("/auth/me"), 200, "admin me").body as { id: number }
  const token = {
    ADMIN: adminToken,
    COACH: await login(baseUrl, `coach${tag}`, password.COACH),
    ATHLETE: await login(baseUrl, `athlete${tag}`, password.ATHLETE)
  }
  return {
    token,
    userId: { ADMIN: me.id, COACH: coachUser.id, ATHLETE: athleteUser.id },
    password,
    coachId: coach.id,
    athleteId: athlete.id,
    as: (role, url = baseUrl) =>
      callerWith((method, path, options) => send(url, method, path, options), role === "none" ? null : token[role])
  }
}
