import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Caller, Reply } from "../rest/support/http.ts"
import type { ServerProcess } from "@club/test-support"
import { budget } from "./support/budget.ts"
import { deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import { expectStatus, type Principals, setUpPrincipals, urlOf } from "./support/principals.ts"
import { recordResult } from "./support/results.ts"

interface SessionDto {
  readonly id: number
  readonly athleteIds: ReadonlyArray<number>
  readonly activiteIds: ReadonlyArray<number>
}

const sorted = (ids: ReadonlyArray<number>) => [...ids].sort((a, b) => a - b)
const statuses = (replies: ReadonlyArray<Reply>) =>
  replies.reduce<Record<number, number>>(
    (counts, reply) => ({ ...counts, [reply.status]: (counts[reply.status] ?? 0) + 1 }),
    {}
  )

describe.skipIf(!postgresAnswers)(
  "Two instances on one PostgreSQL (same JWT_SECRET), under concurrent load on the same records",
  () => {
    let deployment: Deployment
    let a: ServerProcess
    let b: ServerProcess
    let principals: Principals
    /** The same role on instance A and on instance B, alternately: request i goes to A when i is even. */
    let on: (role: "ADMIN" | "COACH" | "ATHLETE") => (i: number) => Caller
    const numbers: Record<string, unknown> = {}

    beforeAll(async () => {
      deployment = await deploy("server")
      ;[a, b] = await Promise.all([deployment.start(), deployment.start()])
      principals = await setUpPrincipals(urlOf(a.port))
      on = (role) => (i) => principals.as(role, urlOf(i % 2 === 0 ? a.port : b.port))
    })
    afterAll(async () => {
      recordResult("instances", numbers)
      await deployment?.release()
    })

    it("creates on both at once: distinct ids, exact counts, the same list seen from each", async () => {
      const admin = on("ADMIN")
      const before =
        (expectStatus(await admin(0).post("/athletes/all"), 200, "athletes").body as Array<{ id: number }>).length
      const count = 200 * budget.instancesRounds
      const replies = await Promise.all(
        Array.from({ length: count }, (_, i) => admin(i).post("/athletes/create", { name: `Twin ${i}` }))
      )
      expect(statuses(replies)).toEqual({ 201: count })
      const ids = replies.map((reply) => (reply.body as { id: number }).id)
      expect(new Set(ids).size).toBe(count)
      const [fromA, fromB] = await Promise.all([admin(0).post("/athletes/all"), admin(1).post("/athletes/all")])
      expect(fromA.text).toBe(fromB.text)
      expect((fromA.body as Array<unknown>).length).toBe(before + count)
      numbers["concurrentCreates"] = { count, distinctIds: new Set(ids).size }
    })

    it("the same supplied id from both at once: exactly one create wins, the others are 409", async () => {
      const admin = on("ADMIN")
      const outcomes: Array<Record<number, number>> = []
      for (let round = 0; round < 5 * budget.instancesRounds; round++) {
        const id = 900_000 + round
        const replies = await Promise.all(
          Array.from(
            { length: 20 },
            (_, i) => admin(i).post("/athletes/create", { id, name: `Contested ${round}-${i}` })
          )
        )
        outcomes.push(statuses(replies))
        expect(statuses(replies)).toEqual({ 201: 1, 409: 19 })
        expectStatus(await admin(1).get(`/athletes/${id}`), 200, "the winner")
      }
      numbers["suppliedIdRaces"] = outcomes
    })

    it("activities added to one session from both at once: none lost", async () => {
      const coach = on("COACH")
      const session = (expectStatus(await coach(0).post("/session/create", { name: "Busy session" }), 201, "session")
        .body as SessionDto).id
      const count = 80 * budget.instancesRounds
      const replies = await Promise.all(
        Array.from(
          { length: count },
          (_, i) => coach(i).post("/activite/create", { name: `Drill ${i}`, sessionId: session })
        )
      )
      expect(statuses(replies)).toEqual({ 201: count })
      const [fromA, fromB] = await Promise.all([
        coach(0).get(`/session/${session}`),
        coach(1).get(`/session/${session}`)
      ])
      expect((fromA.body as SessionDto).activiteIds).toHaveLength(count)
      expect(fromB.text).toBe(fromA.text)
      const summaries = expectStatus(
        await coach(1).get(`/athletes/athletes/session/${session}/activities`),
        200,
        "summaries"
      ).body as Array<{ id: number }>
      expect(new Set(summaries.map((s) => s.id)).size).toBe(count)
      numbers["concurrentActivityCreates"] = { count, stored: (fromA.body as SessionDto).activiteIds.length }
    })

    it("session updates from both at once: the session ends with exactly one submitted set, memberships agree", async () => {
      const admin = on("ADMIN")
      const coach = on("COACH")
      const pool: Array<number> = []
      for (let i = 0; i < 12; i++) {
        pool.push(
          (expectStatus(await admin(i).post("/athletes/create", { name: `Member ${i}` }), 201, "athlete").body as {
            id: number
          }).id
        )
      }
      const session = (expectStatus(
        await coach(0).post("/session/create", { name: "Contended", athleteIds: [pool[0]] }),
        201,
        "session"
      ).body as SessionDto).id
      const sets = Array.from({ length: 60 }, (_, i) => sorted(pool.filter((_, k) => (k + i) % (2 + (i % 5)) === 0)))
      const replies = await Promise.all(
        sets.map((athleteIds, i) => coach(i).put(`/session/update/${session}`, { athleteIds }))
      )
      expect(statuses(replies)).toEqual({ 204: sets.length })
      const final = sorted(
        (expectStatus(await coach(1).get(`/session/${session}`), 200, "session").body as SessionDto).athleteIds
      )
      expect(sets.map((set) => set.join(","))).toContain(final.join(","))
      for (const athlete of pool) {
        const listed =
          (expectStatus(await coach(athlete).get(`/athletes/athlete/${athlete}/session`), 200, "sessions of")
            .body as Array<{ id: number }>)
            .filter((summary) => summary.id === session)
        expect(listed, `athlete ${athlete}`).toHaveLength(final.includes(athlete) ? 1 : 0)
      }
      numbers["contendedSessionUpdates"] = { updates: sets.length, finalSetSize: final.length }
    })

    it("athlete session lists replaced from both at once: one submitted list wins whole, sessions agree", async () => {
      const admin = on("ADMIN")
      const coach = on("COACH")
      const athlete =
        (expectStatus(await admin(0).post("/athletes/create", { name: "Contended athlete" }), 201, "athlete").body as {
          id: number
        }).id
      const sessions: Array<number> = []
      for (let i = 0; i < 8; i++) {
        sessions.push(
          (expectStatus(await coach(i).post("/session/create", { name: `Option ${i}` }), 201, "session")
            .body as SessionDto).id
        )
      }
      const lists = Array.from(
        { length: 40 },
        (_, i) => sorted(sessions.filter((_, k) => (k + i) % (2 + (i % 3)) === 0))
      )
      const replies = await Promise.all(
        lists.map((sessionIds, i) => admin(i).put(`/athletes/${athlete}`, { name: "Contended athlete", sessionIds }))
      )
      expect(statuses(replies)).toEqual({ 200: lists.length })
      const final = sorted(
        (expectStatus(await coach(1).get(`/athletes/athlete/${athlete}/session`), 200, "sessions of").body as Array<
          { id: number }
        >).map((s) => s.id)
      )
      expect(lists.map((list) => list.join(","))).toContain(final.join(","))
      for (const session of sessions) {
        const members =
          (expectStatus(await coach(session).get(`/session/${session}`), 200, "session").body as SessionDto).athleteIds
        expect(members.filter((id) => id === athlete), `session ${session}`).toHaveLength(
          final.includes(session) ? 1 : 0
        )
      }
      numbers["contendedAthleteUpdates"] = { updates: lists.length, finalListSize: final.length }
    })

    it("one activity moved into different sessions from both at once: it ends in exactly one", async () => {
      const coach = on("COACH")
      const home =
        (expectStatus(await coach(0).post("/session/create", { name: "Home" }), 201, "session").body as SessionDto).id
      expectStatus(await coach(0).post("/activite/create", { name: "Wanderer", sessionId: home }), 201, "activity")
      const activity = (expectStatus(await coach(1).get(`/session/${home}`), 200, "home").body as SessionDto)
        .activiteIds[0]!
      const targets: Array<number> = []
      for (let i = 0; i < 10; i++) {
        targets.push(
          (expectStatus(await coach(i).post("/session/create", { name: `Target ${i}` }), 201, "session")
            .body as SessionDto).id
        )
      }
      const replies = await Promise.all(
        Array.from(
          { length: 40 },
          (_, i) => coach(i).put(`/session/update/${targets[i % targets.length]}`, { activiteIds: [activity] })
        )
      )
      expect(statuses(replies)).toEqual({ 204: 40 })
      const all = expectStatus(await coach(1).get("/session/all"), 200, "sessions").body as Array<SessionDto>
      const holders = all.filter((session) => session.activiteIds.includes(activity))
      expect(holders).toHaveLength(1)
      expect(targets).toContain(holders[0]!.id)
      numbers["contendedActivityMoves"] = { moves: 40, holders: holders.length }
    })

    it("both instances stay healthy and log no failure", async () => {
      for (const server of [a, b]) {
        expect(server.child.exitCode).toBeNull()
        expect(
          server.logs().filter((line) => line.level === "ERROR").map((line) =>
            `${String(line.message)} ${line.cause ?? ""}`.slice(0, 300)
          )
        ).toEqual([])
      }
    })
  }
)
