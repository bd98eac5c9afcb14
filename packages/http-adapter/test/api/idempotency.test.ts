import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectJson, expectProblem, expectText } from "@club/test-support/expectations"
import type { Reply } from "../support/InProcessApp.ts"
import { createSession, unique } from "../support/records.ts"

const club = clubForFile()

let keys = 0
const withKey = (key = `key-${++keys}`) => ({ headers: { "idempotency-key": key } })
const replayed = (reply: Reply) => reply.headers.get("idempotent-replayed")
const sessionsNamed = async (name: string) =>
  ((await club().coach.get("/session/all")).body as Array<{ name: string }>).filter((session) => session.name === name)

describe("Idempotency-Key on REST writes", () => {
  it("a create sent twice with one key creates once and answers the same body twice, the second marked replayed", async () => {
    const name = unique("Once")
    const key = withKey()
    const first = await club().coach.post("/session/create", { name, duree: 60 }, key)
    expect(first.status).toBe(201)
    expect(replayed(first)).toBeNull()
    const second = await club().coach.post("/session/create", { name, duree: 60 }, key)
    expectJson(second, 201, first.body)
    expect(replayed(second)).toBe("true")
    expect(await sessionsNamed(name)).toHaveLength(1)
  })

  it("the same key with another body or path answers 422 problem+json and writes nothing", async () => {
    const name = unique("Kept")
    const key = withKey()
    expect((await club().coach.post("/session/create", { name }, key)).status).toBe(201)
    expectProblem(
      await club().coach.post("/session/create", { name: `${name}-changed` }, key),
      422,
      /different request/u
    )
    expectProblem(await club().coach.post("/activite/create", { name, sessionId: 1 }, key), 422)
    expect(await sessionsNamed(`${name}-changed`)).toHaveLength(0)
  })

  it("tells bodies apart without content-length too, as an HTTP/2 client may send them", async () => {
    const key = withKey()
    const unannounced = { ...key, announceLength: false }
    const name = unique("Unannounced")
    expect((await club().coach.post("/session/create", { name }, unannounced)).status).toBe(201)
    expectProblem(
      await club().coach.post("/session/create", { name: `${name}-changed` }, unannounced),
      422,
      /different request/u
    )
    expect(replayed(await club().coach.post("/session/create", { name }, unannounced))).toBe("true")
  })

  it("a key is the caller's: another user's same key is a key of its own", async () => {
    const name = unique("Mine")
    const key = withKey()
    expect((await club().coach.post("/athletes/create", { name }, key)).status).toBe(403)
    expect((await club().admin.post("/athletes/create", { name }, key)).status).toBe(201)
  })

  it("a refusal (4xx) is replayed; a server failure (5xx) is not kept, and is served again", async () => {
    const refusedKey = withKey()
    const body = { name: unique("Refused"), athleteIds: [987_654_321] }
    const refused = await club().coach.post("/session/create", body, refusedKey)
    expectText(refused, 400, /athleteIds/u)
    const repeat = await club().coach.post("/session/create", body, refusedKey)
    expectText(repeat, 400, refused.text)
    expect(replayed(repeat)).toBe("true")

    const failedKey = withKey()
    const activity = { name: unique("Orphan"), sessionId: 987_654_321 }
    expectText(await club().coach.post("/activite/create", activity, failedKey), 500, /^Error: /u)
    const retried = await club().coach.post("/activite/create", activity, failedKey)
    expectText(retried, 500, /^Error: /u)
    expect(replayed(retried)).toBeNull()
  })

  it("a delete repeated with its key answers its success again, not a 404; an activity's Location is replayed too", async () => {
    const session = await createSession(club())
    const key = withKey()
    expectText(await club().coach.delete(`/session/delete/${session.id}`, key), 200, "Session deleted successfully")
    const again = await club().coach.delete(`/session/delete/${session.id}`, key)
    expectText(again, 200, "Session deleted successfully")
    expect(replayed(again)).toBe("true")

    const target = await createSession(club())
    const activityKey = withKey()
    const created = await club().coach.post("/activite/create", { name: "Located", sessionId: target.id }, activityKey)
    const repeated = await club().coach.post("/activite/create", { name: "Located", sessionId: target.id }, activityKey)
    expectText(repeated, 201, "Activity created")
    expect(repeated.headers.get("location")).toBe(created.headers.get("location"))
  })

  it("a key that is not 1 to 255 visible ASCII characters is refused, 400 problem naming the header; nothing is written", async () => {
    for (const key of ["k".repeat(256), "has space"]) {
      const name = unique("BadKey")
      expectProblem(
        await club().coach.post("/session/create", { name }, withKey(key)),
        400,
        "Idempotency-Key: Expected 1 to 255 visible ASCII characters"
      )
      expect(await sessionsNamed(name)).toHaveLength(0)
    }
  })
})
