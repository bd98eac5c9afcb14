import { expect } from "vitest"
import { randomBytes } from "node:crypto"
import type { Reply } from "../Reply.ts"
import type { Caller, Club, Role, UserDto } from "./Club.ts"

/** Records created through the API itself, for the tests that need some to exist. */

export interface AthleteDto {
  readonly id: number
  readonly name: string | null
  readonly categorie: string | null
  readonly niveau: string | null
  readonly groupes: ReadonlyArray<string>
  readonly sessionIds: ReadonlyArray<number>
  readonly userId: number | null
}

export interface SessionDto {
  readonly id: number
  readonly name: string | null
  readonly isRecurrent: boolean | null
  readonly creneau: string | null
  readonly duree: number | null
  readonly groupe: string | null
  readonly coachId: number | null
  readonly athleteIds: ReadonlyArray<number>
  readonly activiteIds: ReadonlyArray<number>
}

export interface ActivityDto {
  readonly id: null
  readonly name: string | null
  readonly theme: string | null
  readonly duree: number | null
  readonly dataActivite: ReadonlyArray<string>
  readonly sessionId: number | null
}

export interface CoachDto {
  readonly id: number
  readonly name: string | null
}

export interface Summary {
  readonly id: number
  readonly name: string | null
}

/** An id no record of any kind has. */
export const missingId = 987_654_321

let uniqueCounter = 0
/** A name no other test of the run uses. */
export const unique = (prefix: string) =>
  `${prefix}-${process.pid}-${++uniqueCounter}-${randomBytes(3).toString("hex")}`

const answered = <A>(reply: Reply, status: number, what: string): A => {
  if (reply.status !== status) throw new Error(`${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

export const createAthlete = async (club: Club, body: Record<string, unknown> = {}): Promise<AthleteDto> =>
  answered(
    await club.admin.post("/athletes/create", { name: "Athlete", categorie: "Junior", niveau: "B", ...body }),
    201,
    "Creating an athlete"
  )

export const createCoach = async (club: Club, body: Record<string, unknown> = {}): Promise<CoachDto> =>
  answered(await club.admin.post("/coaches/create", { name: "Coach", ...body }), 201, "Creating a coach")

export const createSession = async (club: Club, body: Record<string, unknown> = {}): Promise<SessionDto> =>
  answered(await club.coach.post("/session/create", { name: "Session", ...body }), 201, "Creating a session")

export const readSession = async (club: Club, id: number): Promise<SessionDto> =>
  answered(await club.coach.get(`/session/${id}`), 200, `Reading session ${id}`)

/**
 * Creates an activity in `sessionId` and answers its id (the activity endpoints answer `id: null`),
 * read from its `Location`.
 */
export const createActivity = async (club: Club, sessionId: number, body: Record<string, unknown> = {}) => {
  const reply = await club.coach.post("/activite/create", { name: "Activity", ...body, sessionId })
  answered(reply, 201, "Creating an activity")
  return Number(reply.headers.get("location")!.split("/").at(-1))
}

/** Creates a user through POST /users/create (a COACH unless `body` says otherwise), remembering its password. */
export const createUser = async (club: Club, body: Record<string, unknown> = {}) => {
  const password = (body["password"] as string | undefined) ?? unique("pw")
  club.passwords.add(password)
  const reply = await club.admin.post("/users/create", { name: unique("user"), role: "COACH", ...body, password })
  return { ...answered<UserDto>(reply, 201, "Creating a user"), password }
}

const coachCallers = new WeakMap<Club, Map<number, Caller>>()

/**
 * A coach record with a COACH user of its own, logged in: the planning and attendance writes on
 * its sessions and series are its own (issue 36's ownership rule). `callerFor` finds its caller.
 */
export const createCoachMember = async (club: Club, body: Record<string, unknown> = {}): Promise<CoachDto> => {
  const coach = await createCoach(club, body)
  const user = await createUser(club, { role: "COACH", coachId: coach.id })
  const callers = coachCallers.get(club) ?? new Map<number, Caller>()
  coachCallers.set(club, callers)
  callers.set(coach.id, club.withToken(await tokenOf(club, user.name, user.password)))
  return coach
}

/** The caller who coaches `coachId`: a coach made by `createCoachMember`, else the club's own coach. */
export const callerFor = (club: Club, coachId: unknown): Caller =>
  (typeof coachId === "number" ? coachCallers.get(club)?.get(coachId) : undefined) ?? club.coach

/** A group as `/groups` answers it (issue 41). */
export interface GroupDto {
  readonly id: number
  readonly name: string
  readonly parentId: number | null
  readonly coachIds: ReadonlyArray<number>
}

/** A membership as `/groups/{id}/memberships` and `/memberships` answer it (issue 41). */
export interface MembershipDto {
  readonly id: number
  readonly groupId: number
  readonly athleteId: number
  readonly from: string
  readonly until: string | null
}

const roots = new WeakMap<Club, Promise<GroupDto>>()

/**
 * The club's root group: the first group created (the lowest id), made by the admin when the club
 * has none yet. Asked once per club, so the suites of one file share it.
 */
export const rootGroup = (club: Club): Promise<GroupDto> => {
  const known = roots.get(club)
  if (known !== undefined) return known
  const found = (async () => {
    const first = answered<{ items: ReadonlyArray<GroupDto> }>(
      await club.admin.get("/groups?limit=1"),
      200,
      "Reading the first group"
    ).items[0]
    if (first !== undefined && first.parentId === null) return first
    return answered<GroupDto>(
      await club.admin.post("/groups", { name: unique("Club"), parentId: null, coachIds: [] }),
      201,
      "Creating the root group"
    )
  })()
  roots.set(club, found)
  return found
}

/** A group made by the admin through `POST /groups`, under the root unless `fields` names a parent. */
export const createGroup = async (
  club: Club,
  fields: { readonly name?: string; readonly parentId?: number; readonly coachIds?: ReadonlyArray<number> } = {}
): Promise<GroupDto> =>
  answered(
    await club.admin.post("/groups", {
      name: fields.name ?? unique("group"),
      parentId: fields.parentId ?? (await rootGroup(club)).id,
      coachIds: fields.coachIds ?? []
    }),
    201,
    "Creating a group"
  )

/** `POST /groups/{id}/memberships`: the athlete a member from `from`, open-ended (by the admin unless `by` says). */
export const startMembership = async (
  club: Club,
  groupId: number,
  athleteId: number,
  from: string,
  by: Caller = club.admin
): Promise<MembershipDto> =>
  answered(
    await by.post(`/groups/${groupId}/memberships`, { athleteId, from }),
    201,
    `Starting a membership of athlete ${athleteId} in group ${groupId}`
  )

/** `POST /memberships/{id}/end`: `until` is the membership's last day (by the admin unless `by` says). */
export const endMembership = async (
  club: Club,
  membershipId: number,
  until: string,
  by: Caller = club.admin
): Promise<MembershipDto> =>
  answered(
    await by.post(`/memberships/${membershipId}/end`, { until }),
    200,
    `Ending membership ${membershipId}`
  )

/** `PUT /guardians/{userId}/athletes/{athleteId}` by the admin: the user answers for the athlete. */
export const linkGuardian = async (club: Club, userId: number, athleteId: number) =>
  answered<{ userId: number; athleteId: number }>(
    await club.admin.put(`/guardians/${userId}/athletes/${athleteId}`),
    200,
    `Linking user ${userId} to athlete ${athleteId}`
  )

/** The UserDTO of a user without an e-mail address. */
/** A user's answer: its link to a record of its role is some id (the others null). */
export const userDto = (id: number, name: string, role: Role, email: string | null = null) => ({
  id,
  name,
  email,
  role,
  coachId: role === "COACH" ? expect.any(Number) : null,
  athleteId: role === "ATHLETE" ? expect.any(Number) : null,
  adminId: role === "ADMIN" ? expect.any(Number) : null
})

/**
 * `GET /auth/me`'s answer for `user`: the user with its role's rules (`rulesOf` checks them), its
 * groups, and the athletes it guards (none unless given).
 */
export const meOf = (user: object, guardedAthleteIds: ReadonlyArray<number> = []) => ({
  ...user,
  rules: expect.any(Object),
  groups: expect.any(Array),
  guardedAthleteIds
})

/** POST /auth/login, remembering the password. */
export const login = (club: Club, name: string, password: string) => {
  club.passwords.add(password)
  return club.anonymous.post("/auth/login", { name, password })
}

/** The token of a login that must succeed. */
export const tokenOf = async (club: Club, name: string, password: string) =>
  answered<{ token: string }>(await login(club, name, password), 200, `Login of ${name}`).token

const unsetSessionFields = { name: null, isRecurrent: null, creneau: null, duree: null, groupe: null, coachId: null }

/** The SessionDTO of a session created without the fields `fields` does not give. */
export const sessionDto = (id: number, fields: Partial<SessionDto> = {}): SessionDto => ({
  id,
  ...unsetSessionFields,
  athleteIds: [],
  activiteIds: [],
  ...fields
})

/** The ActiviteDTO of an activity created without the fields `fields` does not give. */
export const activityDto = (sessionId: number, fields: Partial<ActivityDto> = {}): ActivityDto => ({
  id: null,
  name: null,
  theme: null,
  duree: null,
  dataActivite: [],
  sessionId,
  ...fields
})

/** The AthleteDTO of the athlete endpoints, which fill only id, name, categorie and niveau. */
export const athleteDto = (
  id: number,
  name: string | null,
  categorie: string | null,
  niveau: string | null
): AthleteDto => ({ id, name, categorie, niveau, groupes: [], sessionIds: [], userId: null })

export const allActivities = async (club: Club): Promise<Array<ActivityDto>> =>
  answered(await club.coach.get("/activite/all"), 200, "Reading the activities")
export const allSessions = async (club: Club): Promise<Array<SessionDto>> =>
  answered(await club.coach.get("/session/all"), 200, "Reading the sessions")
export const allAthletes = async (club: Club): Promise<Array<AthleteDto>> =>
  answered(await club.admin.post("/athletes/all"), 200, "Reading the athletes")

export const sessionsOfAthlete = async (club: Club, athleteId: number): Promise<Array<Summary>> =>
  answered(
    await club.coach.get(`/athletes/athlete/${athleteId}/session`),
    200,
    `Reading the sessions of athlete ${athleteId}`
  )

/**
 * An id a generated one would soon reach (the largest in use + 2): supplying it checks that the ids
 * generated afterwards step over it rather than collide.
 */
export const idAhead = (records: ReadonlyArray<{ readonly id: number }>) => Math.max(0, ...records.map((r) => r.id)) + 2

/** Three records created without an id: distinct ids, none of them `supplied`. */
export const expectGeneratedIdsAvoid = async (supplied: number, create: () => Promise<{ readonly id: number }>) => {
  const ids = [(await create()).id, (await create()).id, (await create()).id]
  if (ids.includes(supplied) || new Set(ids).size !== 3) {
    throw new Error(`Generated ids ${ids.join(", ")} collide with ${supplied}`)
  }
}

export const byId = <A extends { readonly id: number }>(items: ReadonlyArray<A>) =>
  [...items].sort((a, b) => a.id - b.id)
export const sorted = (ids: ReadonlyArray<number>) => [...ids].sort((a, b) => a - b)

/** A row of `GET /planning/conflicts`: one pair of sessions and the person they both book. */
export interface DoubleBookingDto {
  readonly sessionId: number
  readonly otherSessionId: number
  readonly coachId: number | null
  readonly athleteId: number | null
}

/** Every page of `GET /planning/conflicts` as `caller` (the admin when absent), following `nextCursor`. */
export const allConflicts = async (club: Club, caller: Caller = club.admin): Promise<Array<DoubleBookingDto>> => {
  const pairs: Array<DoubleBookingDto> = []
  let path = "/planning/conflicts?limit=500"
  for (let page = 0; page < 10_000; page++) {
    const reply = await caller.get(path)
    expect(reply.status, reply.text).toBe(200)
    const body = reply.body as { items: ReadonlyArray<DoubleBookingDto>; nextCursor: string | null }
    pairs.push(...body.items)
    if (body.nextCursor === null) return pairs
    path = `/planning/conflicts?limit=500&cursor=${body.nextCursor}`
  }
  throw new Error("GET /planning/conflicts: more than 10,000 pages")
}
