import { eventually, startServer } from "@club/test-support"
import { expect, it } from "vitest"
import { createAthlete, createSession } from "@club/test-support/rest"
import { adminPassword, type Club, jwtSecret, onEveryDatabase } from "../rest/support/club.ts"
import { send } from "../rest/support/http.ts"
import { type Received, signedWith, receiverOfTheFile, quickDeliveries } from "./Receiver.ts"

const secret = "receiver-secret-0123456789"
const receiver = receiverOfTheFile()

const future = "2099-06-01T18:00:00"

/** A session of the club's coach with `count` new athletes, and a webhook to the receiver. */
const setUp = async (club: Club, count: number) => {
  const athletes: Array<number> = []
  for (let i = 0; i < count; i++) athletes.push((await createAthlete(club)).id)
  const session = await createSession(club, { creneau: future, coachId: club.coachId, athleteIds: athletes })
  return { sessionId: session.id, athletes }
}

const register = async (club: Club) => {
  const created = await club.admin.post("/attendance/webhooks", { url: receiver().url, secret })
  expect(created.status, created.text).toBe(201)
  return (created.body as { id: number }).id
}

const reply = (club: Club, athleteId: number, sessionId: number, answer: string) =>
  club.coach.put(`/attendance/athletes/${athleteId}/replies/${sessionId}`, { answer })

const ofSession = (sessionId: number) => receiver().received.filter((r) => r.event.sessionId === sessionId)

/** The first delivery of each event, in the order they came. */
const firstDeliveries = (events: ReadonlyArray<Received>) =>
  events.filter((r, i) => events.findIndex((o) => o.eventId === r.eventId) === i)

await onEveryDatabase("Attendance events delivered to webhooks", (club, database) => {
  it("delivers each event signed, with a fresh timestamp, in order per session", async () => {
    receiver().reset("ok")
    const { sessionId, athletes: [a, b] } = await setUp(club(), 2)
    // Registered after the session's create: its sessionCreated is not what this test is about.
    const webhookId = await register(club())
    await club().coach.put(`/attendance/sessions/${sessionId}/settings`, { capacity: 1 })
    await reply(club(), a!, sessionId, "yes")
    await reply(club(), b!, sessionId, "yes")
    await reply(club(), a!, sessionId, "no")
    expect(await eventually(async () => ofSession(sessionId).length >= 4, 20_000)).toBe(true)
    const events = ofSession(sessionId)
    expect(events.map((r) => [r.event.type, r.event.data["athleteId"]])).toEqual([
      ["reply", a],
      ["reply", b],
      ["cancellation", a],
      ["promotion", b]
    ])
    for (const event of events) {
      expect(signedWith(event, secret)).toBe(true)
      expect(Math.abs(event.timestamp - Date.now() / 1000)).toBeLessThan(60)
      expect(event.event.id).toBe(event.eventId)
    }
    expect(signedWith({ ...events[0]!, body: events[0]!.body.replace("reply", "cancellation") }, secret)).toBe(false)
    const ids = events.map((r) => r.eventId)
    expect([...ids].sort((x, y) => x - y)).toEqual(ids)
    await club().admin.delete(`/attendance/webhooks/${webhookId}`)
  })

  it("a receiver that fails, times out and comes back loses nothing; the log shows every attempt; a replay delivers again", async () => {
    receiver().reset("fail")
    const { sessionId, athletes } = await setUp(club(), 3)
    const webhookId = await register(club())
    for (const athlete of athletes) await reply(club(), athlete, sessionId, "yes")
    const log = async () =>
      (await club().admin.get(`/attendance/webhooks/${webhookId}/deliveries`)).body as ReadonlyArray<{
        eventId: number
        attempt: number
        statusCode: number | null
        delivered: boolean
        error: string | null
      }>
    expect(await eventually(async () => (await log()).filter((x) => x.statusCode === 500).length >= 3, 20_000)).toBe(
      true
    )
    receiver().setMode("hang")
    expect(
      await eventually(async () => (await log()).some((x) => x.error === "timeout"), 20_000)
    )
      .toBe(true)
    receiver().setMode("ok")
    expect(
      await eventually(async () => new Set(ofSession(sessionId).map((r) => r.eventId)).size >= 3, 30_000)
    ).toBe(true)
    const delivered = firstDeliveries(ofSession(sessionId))
    expect(delivered.map((r) => r.event.data["athleteId"])).toEqual(athletes)
    // In order per session: no event came before the one before it was delivered.
    const ids = delivered.map((r) => r.eventId)
    expect([...ids].sort((x, y) => x - y)).toEqual(ids)
    const attempts = await log()
    expect(attempts.filter((x) => x.delivered).map((x) => x.eventId).sort((x, y) => x - y)).toEqual(ids)
    expect(attempts.find((x) => x.eventId === ids[0] && x.delivered)!.attempt).toBeGreaterThan(2)

    const before = receiver().received.length
    const replayed = await club().admin.post(`/attendance/webhooks/${webhookId}/replay?fromEventId=${ids[1]}`)
    expect(replayed.body).toEqual({ replayed: 2 })
    expect(await eventually(async () => receiver().received.length >= before + 2, 20_000)).toBe(true)
    expect(receiver().received.slice(before).map((r) => r.eventId)).toEqual(ids.slice(1))
    await club().admin.delete(`/attendance/webhooks/${webhookId}`)
  })

  /** Another server on the same PostgreSQL database, with the same secret and first admin. */
  const startSecondInstance = () =>
    startServer({
      ...quickDeliveries,
      DATABASE_URL: club().databaseUrl!,
      JWT_SECRET: jwtSecret,
      ADMIN_NAME: "head-admin",
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: "warn"
    })

  if (database.kind === "server") {
    it("two instances never deliver one event at the same time, and keep the order per session", async () => {
      receiver().reset("slow")
      const second = await startSecondInstance()
      try {
        const sessions = [await setUp(club(), 5), await setUp(club(), 5), await setUp(club(), 5)]
        const webhookId = await register(club())
        const secondUrl = `http://127.0.0.1:${second.port}`
        await Promise.all(sessions.flatMap(({ sessionId, athletes }) =>
          athletes.map((athlete, i) =>
            i % 2 === 0
              ? reply(club(), athlete, sessionId, "yes")
              : send(secondUrl, "PUT", `/attendance/athletes/${athlete}/replies/${sessionId}`, {
                token: club().token.COACH,
                json: { answer: "yes" }
              })
          )
        ))
        for (const { sessionId } of sessions) {
          expect(await eventually(async () => ofSession(sessionId).length >= 5, 30_000)).toBe(true)
          const ids = ofSession(sessionId).map((r) => r.eventId)
          expect(new Set(ids).size).toBe(ids.length)
          expect([...ids].sort((x, y) => x - y)).toEqual(ids)
        }
        expect(receiver().maxInFlightPerEvent()).toBe(1)
        await club().admin.delete(`/attendance/webhooks/${webhookId}`)
      } finally {
        await second.stop()
      }
    })

    it("a server killed mid-delivery: another instance delivers the event once its lease ends", async () => {
      receiver().reset("hang")
      const { sessionId, athletes: [a] } = await setUp(club(), 1)
      const webhookId = await register(club())
      const killed = new Promise<Received>((resolve) =>
        receiver().onRequest((event) => {
          if (event.event.sessionId !== sessionId) return
          club().server.child.kill("SIGKILL")
          receiver().onRequest(undefined)
          resolve(event)
        })
      )
      await reply(club(), a!, sessionId, "yes")
      const first = await killed
      await club().server.exited
      receiver().setMode("ok")
      const second = await startSecondInstance()
      try {
        expect(await eventually(async () => ofSession(sessionId).length >= 2, 30_000)).toBe(true)
        const [again] = ofSession(sessionId).slice(1)
        expect(again!.eventId).toBe(first.eventId)
        expect(again!.body).toBe(first.body)
        // Not before the lease of the killed worker ended (twice the timeout and a second).
        expect(again!.at - first.at).toBeGreaterThanOrEqual(2000 - 100)
        const log = await send(
          `http://127.0.0.1:${second.port}`,
          "GET",
          `/attendance/webhooks/${webhookId}/deliveries`,
          {
            token: club().token.ADMIN
          }
        )
        expect(
          (log.body as ReadonlyArray<{ attempt: number; delivered: boolean }>).map((x) => [x.attempt, x.delivered])
        )
          .toEqual([[2, true]])
      } finally {
        await second.stop()
      }
    })
  }
}, { env: quickDeliveries })
