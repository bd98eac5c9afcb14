import type { Reply } from "../Reply.ts"

/** A club as the REST suites see it, whichever harness serves the API: in process or a server over the wire. */

export type Role = "ADMIN" | "COACH" | "ATHLETE"

export interface UserDto {
  readonly id: number
  readonly name: string
  readonly email: string | null
  readonly role: Role
  /** The record the user is linked to: the one of its role is set, the others null. */
  readonly coachId: number | null
  readonly athleteId: number | null
  readonly adminId: number | null
}

/** What a request carries beside its method and path; a harness may take more (`Caller<Options>`). */
export interface RequestOptions {
  /** A bearer token; absent or null sends no `Authorization` header. */
  readonly token?: string | null
  /** Serialised as the JSON body (with `content-type: application/json`). */
  readonly json?: unknown
  /** A raw body, sent as is (with `content-type: application/json` unless `headers` says otherwise). */
  readonly body?: string | Uint8Array
  readonly headers?: Record<string, string>
}

/** One request; every HTTP answer is returned. */
export type Send<Options extends RequestOptions = RequestOptions> = (
  method: string,
  path: string,
  options: Options
) => Promise<Reply>

/** Requests made with one caller's credentials. */
export interface Caller<Options extends RequestOptions = RequestOptions> {
  readonly get: (path: string, extra?: Options) => Promise<Reply>
  readonly post: (path: string, json?: unknown, extra?: Options) => Promise<Reply>
  readonly put: (path: string, json?: unknown, extra?: Options) => Promise<Reply>
  readonly delete: (path: string, extra?: Options) => Promise<Reply>
  readonly send: (method: string, path: string, extra?: Options) => Promise<Reply>
}

export const callerWith = <Options extends RequestOptions>(
  send: Send<Options>,
  token: string | null
): Caller<Options> => {
  const call = (method: string, path: string, extra?: Options) => send(method, path, { token, ...extra } as Options)
  const withJson = (method: string) => (path: string, json?: unknown, extra?: Options) =>
    call(method, path, json === undefined ? extra : { json, ...extra } as Options)
  return {
    get: (path, extra) => call("GET", path, extra),
    post: withJson("POST"),
    put: withJson("PUT"),
    delete: (path, extra) => call("DELETE", path, extra),
    send: call
  }
}

/** An API with an admin, a coach and an athlete, each logged in, and the records the last two are linked to. */
export interface Club<Options extends RequestOptions = RequestOptions> {
  readonly anonymous: Caller<Options>
  readonly admin: Caller<Options>
  readonly coach: Caller<Options>
  readonly athlete: Caller<Options>
  readonly as: (role: Role | "none") => Caller<Options>
  readonly withToken: (token: string | null) => Caller<Options>
  readonly token: Record<Role, string>
  readonly user: Record<Role, UserDto>
  /** The coach record linked to the COACH user. */
  readonly coachId: number
  /** The athlete record linked to the ATHLETE user. */
  readonly athleteId: number
  /** Every answer the API gave, for checks over all of them. */
  readonly replies: Array<Reply>
  /** Every password sent, so that no answer is found to contain one. */
  readonly passwords: Set<string>
}

/** The first admin, whom the API is started with; the coach and the athlete are created through it. */
export const firstAdmin = { name: "head-admin", password: "admin-password-0" } as const
export const coachMember = { name: "coach", password: "coach-password-0", email: "coach@club.test" } as const
export const athleteMember = { name: "athlete", password: "athlete-password-0" } as const

const answered = <A>(reply: Reply, status: number, what: string): A => {
  if (reply.status !== status) throw new Error(`${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

/**
 * Builds the club through the API itself, as a client would, on an API whose first admin is
 * `firstAdmin`; every answer given to the club's callers is kept in `replies`.
 */
export const setUpClub = async <Options extends RequestOptions>(send: Send<Options>): Promise<Club<Options>> => {
  const replies: Array<Reply> = []
  const passwords = new Set<string>([firstAdmin.password, coachMember.password, athleteMember.password])
  const request: Send<Options> = async (method, path, options) => {
    const reply = await send(method, path, options)
    replies.push(reply)
    return reply
  }
  const login = async (name: string, password: string) =>
    answered<{ token: string }>(
      await callerWith(request, null).post("/auth/login", { name, password }),
      200,
      `Login of ${name}`
    ).token
  const adminToken = await login(firstAdmin.name, firstAdmin.password)
  const admin = callerWith(request, adminToken)
  const created = async <A>(path: string, body: unknown, what: string) =>
    answered<A>(await admin.post(path, body), 201, `Creating ${what}`)
  const coachId = (await created<{ id: number }>("/create", { name: "Coach Carter" }, "a coach")).id
  const athleteId = (await created<{ id: number }>(
    "/athletes/create",
    { name: "Alex Athlete", categorie: "Senior", niveau: "A" },
    "an athlete"
  )).id
  const coachUser = await created<UserDto>(
    "/users/create",
    { ...coachMember, role: "COACH", coachId },
    "the coach user"
  )
  const athleteUser = await created<UserDto>(
    "/users/create",
    { ...athleteMember, role: "ATHLETE", athleteId },
    "the athlete user"
  )
  const token: Record<Role, string> = {
    ADMIN: adminToken,
    COACH: await login(coachMember.name, coachMember.password),
    ATHLETE: await login(athleteMember.name, athleteMember.password)
  }
  const as = (role: Role | "none") => callerWith(request, role === "none" ? null : token[role])
  return {
    anonymous: as("none"),
    admin,
    coach: as("COACH"),
    athlete: as("ATHLETE"),
    as,
    withToken: (value) => callerWith(request, value),
    token,
    user: {
      ADMIN: (({ groups: _groups, rules: _rules, guardedAthleteIds: _guarded, ...user }) => user)(
        answered<UserDto & { rules: unknown; groups: unknown; guardedAthleteIds: unknown }>(
          await admin.get("/auth/me"),
          200,
          "Reading the admin's user"
        )
      ),
      COACH: coachUser,
      ATHLETE: athleteUser
    },
    coachId,
    athleteId,
    replies,
    passwords
  }
}
