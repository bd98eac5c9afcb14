import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase, type Role } from "./support/club.ts"
import { createActivity, createAthlete, createCoach, createSession } from "./support/fixtures.ts"
import type { Reply } from "./support/http.ts"
import { nowSeconds, signToken } from "./support/tokens.ts"

// A plain read by id (`Authorization: Bearer <token>`) is answered by the server's fast path
// when it succeeds (test/fastReads.test.ts shows which path answers what). The same request with
// the scheme spelled `bearer` is one the fast path does not take: the API answers it. Both must
// be the same answer, byte for byte, whatever the outcome.

const missingId = 987_654_321

/** What a client sees of an answer, but the date. */
const observed = (reply: Reply) => ({
  status: reply.status,
  headers: [...reply.headers].filter(([name]) => name !== "date"),
  text: reply.text
})

let reads = 0

/** Both requests carry the same `X-Request-Id`, which every answer repeats (and every problem names). */
const readBoth = async (club: Club, path: string, token: string) => {
  const requestId = `fast-or-api-${++reads}`
  const fast = await club.anonymous.get(path, {
    headers: { authorization: `Bearer ${token}`, "x-request-id": requestId }
  })
  const api = await club.anonymous.get(path, {
    headers: { authorization: `bearer ${token}`, "x-request-id": requestId }
  })
  return { fast: observed(fast), api: observed(api) }
}

await onEveryDatabase("Plain reads by id answer as the API does", (club) => {
  const records = async () => {
    const session = await createSession(club(), { name: "Fast lane", athleteIds: [club().athleteId] })
    const activityId = await createActivity(club(), session.id)
    const athlete = await createAthlete(club())
    const coach = await createCoach(club())
    return { session, activityId, athlete, coach }
  }

  it("on success, for every record read by id, from each role the read is open to", async () => {
    const { activityId, athlete, coach, session } = await records()
    const reads: ReadonlyArray<readonly [string, Role]> = [
      [`/session/${session.id}`, "COACH"],
      [`/session/${session.id}`, "ATHLETE"],
      [`/activite/${activityId}`, "ATHLETE"],
      [`/athletes/${athlete.id}`, "ADMIN"],
      [`/coaches/${coach.id}`, "COACH"],
      [`/users/${club().user.ATHLETE.id}`, "ATHLETE"],
      [`/users/${club().user.COACH.id}`, "ADMIN"],
      [`/admins/${club().user.ADMIN.id}`, "ADMIN"]
    ]
    for (const [path, role] of reads) {
      const { api, fast } = await readBoth(club(), path, club().token[role])
      expect(fast.status, `${role} GET ${path}`).toBe(200)
      expect(fast, `${role} GET ${path}`).toEqual(api)
    }
  })

  it("on failure: unknown records, refused roles, invalid and expired tokens", async () => {
    const { session } = await records()
    const expired = signToken({
      sub: String(club().user.COACH.id),
      role: "COACH",
      iat: nowSeconds() - 7200,
      exp: nowSeconds() - 3600
    })
    const reads: ReadonlyArray<readonly [string, string, number]> = [
      [`/session/${missingId}`, club().token.COACH, 404],
      [`/activite/${missingId}`, club().token.COACH, 404],
      [`/athletes/${missingId}`, club().token.ADMIN, 404],
      [`/coaches/${missingId}`, club().token.ADMIN, 404],
      [`/users/${missingId}`, club().token.ADMIN, 404],
      [`/admins/${missingId}`, club().token.ADMIN, 404],
      [`/session/${session.id}`, club().token.ADMIN, 403],
      [`/users/${club().user.COACH.id}`, club().token.ATHLETE, 403],
      [`/session/${session.id}`, `${club().token.COACH}x`, 401],
      [`/session/${session.id}`, expired, 401]
    ]
    for (const [path, token, status] of reads) {
      const { api, fast } = await readBoth(club(), path, token)
      expect(fast.status, `GET ${path}`).toBe(status)
      expect(fast, `GET ${path}`).toEqual(api)
    }
  })

  describe("a read sees every write before it", () => {
    it("a session updated, then read, answers its new state", async () => {
      const { session } = await records()
      expect((await club().coach.put(`/session/update/${session.id}`, { duree: 75 })).status).toBe(204)
      const { api, fast } = await readBoth(club(), `/session/${session.id}`, club().token.COACH)
      expect(JSON.parse(fast.text)).toMatchObject({ id: session.id, duree: 75 })
      expect(fast).toEqual(api)
    })
  })
})
