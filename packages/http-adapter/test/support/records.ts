import type { Club } from "./club.ts"
import type { Reply } from "./InProcessApp.ts"

/** Records created through the API itself, for the tests that need some to exist. */

let counter = 0
/** A name no other record of the file has. */
export const unique = (prefix: string) => `${prefix}-${++counter}`

const answered = <A>(reply: Reply, status: number, what: string): A => {
  if (reply.status !== status) throw new Error(`${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

export interface Created {
  readonly id: number
}

export const createAthlete = async (club: Club, body: Record<string, unknown> = {}) =>
  answered<Created & Record<string, unknown>>(
    await club.admin.post("/athletes/create", { name: unique("Athlete"), ...body }),
    201,
    "Creating an athlete"
  )

export const createCoach = async (club: Club, body: Record<string, unknown> = {}) =>
  answered<Created & Record<string, unknown>>(
    await club.admin.post("/coaches/create", { name: unique("Coach"), ...body }),
    201,
    "Creating a coach"
  )

export interface SessionAnswer extends Created {
  readonly activiteIds: ReadonlyArray<number>
  readonly athleteIds: ReadonlyArray<number>
}

export const createSession = async (club: Club, body: Record<string, unknown> = {}) =>
  answered<SessionAnswer & Record<string, unknown>>(
    await club.coach.post("/session/create", { name: unique("Session"), ...body }),
    201,
    "Creating a session"
  )

export const readSession = async (club: Club, id: number) =>
  answered<SessionAnswer>(await club.coach.get(`/session/${id}`), 200, `Reading session ${id}`)

/** Creates an activity in `sessionId` and answers its id, read from its `Location`. */
export const createActivity = async (club: Club, sessionId: number, body: Record<string, unknown> = {}) => {
  const reply = await club.coach.post("/activite/create", { name: unique("Activity"), ...body, sessionId })
  answered(reply, 201, "Creating an activity")
  return Number(reply.headers.get("location")!.split("/").at(-1))
}
