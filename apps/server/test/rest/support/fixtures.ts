import type { Club } from "./club.ts"
import type { Reply } from "./http.ts"

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

const created = <A>(reply: Reply, what: string): A => {
  if (reply.status !== 201) throw new Error(`Creating ${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

const ok = <A>(reply: Reply, what: string): A => {
  if (reply.status !== 200) throw new Error(`Reading ${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

export const createAthlete = async (club: Club, body: Record<string, unknown> = {}): Promise<AthleteDto> =>
  created(
    await club.admin.post("/athletes/create", { name: "Athlete", categorie: "Junior", niveau: "B", ...body }),
    "an athlete"
  )

export const createCoach = async (club: Club, body: Record<string, unknown> = {}): Promise<CoachDto> =>
  created(await club.admin.post("/coaches/create", { name: "Coach", ...body }), "a coach")

export const createSession = async (club: Club, body: Record<string, unknown> = {}): Promise<SessionDto> =>
  created(await club.coach.post("/session/create", { name: "Session", ...body }), "a session")

export const readSession = async (club: Club, id: number): Promise<SessionDto> =>
  ok(await club.coach.get(`/session/${id}`), `session ${id}`)

/** Creates an activity in `sessionId` and answers its id (the activity endpoints answer `id: null`). */
export const createActivity = async (club: Club, sessionId: number, body: Record<string, unknown> = {}) => {
  const before = new Set((await readSession(club, sessionId)).activiteIds)
  const reply = await club.coach.post("/activite/create", { name: "Activity", ...body, sessionId })
  if (reply.status !== 201) throw new Error(`Creating an activity failed: ${reply.status} ${reply.text}`)
  const added = (await readSession(club, sessionId)).activiteIds.filter((id) => !before.has(id))
  if (added.length !== 1) {
    throw new Error(`Expected one new activity in session ${sessionId}, found ${added.join(", ")}`)
  }
  return added[0]!
}

export const allActivities = async (club: Club): Promise<Array<ActivityDto>> =>
  ok(await club.coach.get("/activite/all"), "the activities")
export const allSessions = async (club: Club): Promise<Array<SessionDto>> =>
  ok(await club.coach.get("/session/all"), "the sessions")
export const allAthletes = async (club: Club): Promise<Array<AthleteDto>> =>
  ok(await club.admin.post("/athletes/all"), "the athletes")

export const sessionsOfAthlete = async (club: Club, athleteId: number): Promise<Array<Summary>> =>
  ok(await club.coach.get(`/athletes/athlete/${athleteId}/session`), `the sessions of athlete ${athleteId}`)

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
