import { randomUUID } from "node:crypto"
import { expect, it } from "vitest"
import { expectJson, expectProblem, expectText } from "../../expectations.ts"
import type { Reply } from "../../Reply.ts"
import { coachMember, type Club } from "../Club.ts"
import { createSession, missingId, type SessionDto, unique } from "../records.ts"

/** The options that send `Idempotency-Key: key` (a new key unless one is given). */
export const withKey = (key: string = randomUUID()) => ({ headers: { "idempotency-key": key } })

/** The `Idempotent-Replayed` header: "true" on a replayed answer, null on one served afresh. */
export const replayed = (reply: Reply) => reply.headers.get("idempotent-replayed")

export const sessionsNamed = async (club: Club, name: string) =>
  ((await club.coach.get("/session/all")).body as Array<SessionDto>).filter((session) => session.name === name)

/** Idempotency-Key on the REST writes (docs/DECISIONS.md), on any harness. */
export const idempotentWrites = (club: () => Club) => {
  const createSessionWith = (key: ReturnType<typeof withKey>, body: Record<string, unknown>) =>
    club().coach.post("/session/create", body, key)

  it("a session create sent twice with one key creates one session, and answers the same body twice, the second marked replayed", async () => {
    const body = { name: unique("Once"), isRecurrent: true, duree: 60 }
    const key = withKey()
    const first = await createSessionWith(key, body)
    expect(first.status).toBe(201)
    expect(replayed(first)).toBeNull()
    const second = await createSessionWith(key, body)
    expectJson(second, 201, first.body)
    expect(second.text).toBe(first.text)
    expect(replayed(second)).toBe("true")
    expect(await sessionsNamed(club(), body.name)).toHaveLength(1)
  })

  it("the same key with another body, path or method answers 422 problem+json and writes nothing", async () => {
    const name = unique("Kept")
    const key = withKey()
    expect((await createSessionWith(key, { name })).status).toBe(201)
    expectProblem(await createSessionWith(key, { name: `${name}-changed` }), 422, { detail: /different request/u })
    expectProblem(await club().coach.post("/activite/create", { name, sessionId: 1 }, key), 422)
    expect(await sessionsNamed(club(), `${name}-changed`)).toHaveLength(0)
    expect(await sessionsNamed(club(), name)).toHaveLength(1)
  })

  it("two requests with one key at once: one is served; the other gets its answer replayed, or 409 with Retry-After while it runs", async () => {
    for (let round = 0; round < 5; round++) {
      const name = unique("Race")
      const key = withKey()
      const replies = await Promise.all([0, 1].map(() => createSessionWith(key, { name })))
      const fresh = replies.filter((reply) => reply.status === 201 && replayed(reply) === null)
      expect(fresh).toHaveLength(1)
      for (const other of replies.filter((reply) => reply !== fresh[0])) {
        if (other.status === 409) {
          expectProblem(other, 409, { detail: /still being served/u })
          expect(other.headers.get("retry-after")).toBe("1")
        } else {
          expect(other.status).toBe(201)
          expect(replayed(other)).toBe("true")
          expect(other.text).toBe(fresh[0]!.text)
        }
      }
      expect(await sessionsNamed(club(), name)).toHaveLength(1)
    }
  })

  it("a key is the caller's: another user's same key is a key of its own, and a refusal of the caller holds no key", async () => {
    const key = withKey()
    const athlete = { name: unique("Theirs"), categorie: "Senior", niveau: "A" }
    expect((await club().coach.post("/athletes/create", athlete, key)).status).toBe(403)
    const session = await createSessionWith(key, { name: unique("Mine") })
    const created = await club().admin.post("/athletes/create", athlete, key)
    expect([session.status, replayed(session)]).toEqual([201, null])
    expect([created.status, replayed(created)]).toEqual([201, null])
  })

  it("without a key nothing changes: the same create twice makes two sessions", async () => {
    const name = unique("Twice")
    const replies = [
      await club().coach.post("/session/create", { name }),
      await club().coach.post("/session/create", { name })
    ]
    expect(replies.map((reply) => [reply.status, replayed(reply)])).toEqual([[201, null], [201, null]])
    expect(await sessionsNamed(club(), name)).toHaveLength(2)
  })

  it("a refusal (4xx) is replayed as it was; a server failure (5xx) is not kept, and the request is served again", async () => {
    const refusedKey = withKey()
    const body = { name: unique("Refused"), athleteIds: [missingId] }
    const refused = await createSessionWith(refusedKey, body)
    expectText(refused, 400, /athleteIds/u)
    const repeat = await createSessionWith(refusedKey, body)
    expectText(repeat, 400, refused.text)
    expect(replayed(repeat)).toBe("true")

    const failedKey = withKey()
    const activity = { name: unique("Orphan"), sessionId: missingId }
    const failed = await club().coach.post("/activite/create", activity, failedKey)
    expectText(failed, 500, /^Error: /u)
    const retried = await club().coach.post("/activite/create", activity, failedKey)
    expectText(retried, 500, failed.text)
    expect(replayed(retried)).toBeNull()
  })

  it("a delete sent twice with one key answers its success twice, not a 404; an activity create's Location is replayed too", async () => {
    const session = await createSession(club(), { name: unique("Doomed") })
    const key = withKey()
    expectText(await club().coach.delete(`/session/delete/${session.id}`, key), 200, "Session deleted successfully")
    const second = await club().coach.delete(`/session/delete/${session.id}`, key)
    expectText(second, 200, "Session deleted successfully")
    expect(replayed(second)).toBe("true")
    expect((await club().coach.delete(`/session/delete/${session.id}`)).status).toBe(404)

    const target = await createSession(club())
    const activityKey = withKey()
    const activity = { name: unique("Located"), sessionId: target.id }
    const created = await club().coach.post("/activite/create", activity, activityKey)
    const again = await club().coach.post("/activite/create", activity, activityKey)
    expectText(again, 201, "Activity created")
    expect(replayed(again)).toBe("true")
    expect(again.headers.get("location")).toBe(created.headers.get("location"))
    expect((await club().coach.get(`/session/${target.id}`)).body).toMatchObject({
      activiteIds: [Number(created.headers.get("location")!.split("/").pop())]
    })
  })

  it("a key that is not 1 to 255 visible ASCII characters is refused, 400 problem naming the header, and nothing is written", async () => {
    for (const key of ["k".repeat(256), "has space", "tab\there"]) {
      const name = unique("BadKey")
      expectProblem(await createSessionWith(withKey(key), { name }), 400, {
        detail: "Idempotency-Key: Expected 1 to 255 visible ASCII characters"
      })
      expect(await sessionsNamed(club(), name)).toHaveLength(0)
    }
    expect((await createSessionWith(withKey("k".repeat(255)), { name: unique("LongKey") })).status).toBe(201)
  })

  it("a login is not covered: each is answered afresh", async () => {
    const key = withKey()
    const login = { name: coachMember.name, password: coachMember.password }
    const replies = [
      await club().anonymous.post("/auth/login", login, key),
      await club().anonymous.post("/auth/login", login, key)
    ]
    expect(replies.map((reply) => [reply.status, replayed(reply)])).toEqual([[200, null], [200, null]])
  })
}
