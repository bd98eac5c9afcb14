import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase, type Role } from "./support/club.ts"
import { createActivity, createAthlete, createCoach, createSession } from "@club/test-support/rest"
import type { Reply } from "./support/http.ts"
import { nowSeconds, signToken } from "./support/tokens.ts"

// Every record read by id (`GET /session/{id}`, `/activite/{id}`, …), with each outcome a client
// can meet. The authentication scheme is case-insensitive (RFC 9110, 11.1): `Bearer` and `bearer`
// must give the same answer, byte for byte, whatever the outcome.

const missingId = 987_654_321

/** What a client sees of an answer, but the date. */
const observed = (reply: Reply) => ({
  status: reply.status,
  headers: [...reply.headers].filter(([name]) => name !== "date"),
  text: reply.text
})

let reads = 0

/** The read sent twice, with the scheme spelled both ways, each with the same `X-Request-Id`. */
const readBothSpellings = async (club: Club, path: string, token: string) => {
  const requestId = `read-by-id-${++reads}`
  const [capitalised, lowerCase] = await Promise.all(
    ["Bearer", "bearer"].map((scheme) =>
      club.anonymous.get(path, { headers: { authorization: `${scheme} ${token}`, "x-request-id": requestId } })
    )
  )
  expect(capitalised!.headers.get("x-request-id"), `GET ${path}`).toBe(requestId)
  expect(observed(capitalised!), `GET ${path}`).toEqual(observed(lowerCase!))
  return capitalised!
}

await onEveryDatabase("Reads by id", (club) => {
  const records = async () => {
    const session = await createSession(club(), { name: "Read lane", athleteIds: [club().athleteId] })
    const activityId = await createActivity(club(), session.id)
    const athlete = await createAthlete(club())
    const coach = await createCoach(club())
    return { session, activityId, athlete, coach }
  }

  it("answer 200 with the record, for every record read by id, from each role the read is open to", async () => {
    const { activityId, athlete, coach, session } = await records()
    // The seed's activity DTO carries `id: null`.
    const reads: ReadonlyArray<readonly [string, Role, number | null]> = [
      [`/session/${session.id}`, "COACH", session.id],
      [`/session/${session.id}`, "ATHLETE", session.id],
      [`/activite/${activityId}`, "ATHLETE", null],
      [`/athletes/${athlete.id}`, "ADMIN", athlete.id],
      [`/coaches/${coach.id}`, "COACH", coach.id],
      [`/users/${club().user.ATHLETE.id}`, "ATHLETE", club().user.ATHLETE.id],
      [`/users/${club().user.COACH.id}`, "ADMIN", club().user.COACH.id],
      [`/admins/${club().user.ADMIN.id}`, "ADMIN", club().user.ADMIN.id]
    ]
    for (const [path, role, id] of reads) {
      const reply = await readBothSpellings(club(), path, club().token[role])
      expect(reply.status, `${role} GET ${path}`).toBe(200)
      expect(reply.contentType, `${role} GET ${path}`).toBe("application/json")
      expect(reply.body, `${role} GET ${path}`).toMatchObject({ id })
    }
  })

  it("answer the status of each failure: unknown records, refused roles, invalid and expired tokens", async () => {
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
      const reply = await readBothSpellings(club(), path, token)
      expect(reply.status, `GET ${path}`).toBe(status)
    }
  })

  describe("a read sees every write before it", () => {
    it("a session updated, then read, answers its new state", async () => {
      const { session } = await records()
      expect((await club().coach.put(`/session/update/${session.id}`, { duree: 75 })).status).toBe(204)
      const reply = await readBothSpellings(club(), `/session/${session.id}`, club().token.COACH)
      expect(reply.body).toMatchObject({ id: session.id, duree: 75 })
    })
  })
})
