import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Caller, Reply } from "../rest/support/http.ts"
import type { ServerProcess } from "@club/test-support"
import { budget } from "./support/budget.ts"
import { deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import { expectStatus, type Principals, setUpPrincipals, urlOf } from "./support/principals.ts"

interface ReplyDto {
  readonly sessionId: number
  readonly athleteId: number
  readonly state: string
  readonly waitingPosition: number | null
}

interface SessionReplies {
  readonly confirmed: number
  readonly waiting: number
  readonly replies: ReadonlyArray<ReplyDto>
}

const sorted = (values: ReadonlyArray<number>) => [...values].sort((x, y) => x - y)

/** Places of the session, and members of its group racing for them. */
const capacity = 20
const members = 80

/**
 * Issue 41's "the capacity and waiting-list rules hold as today, with two instances racing", over
 * the wire: the members of a group (not the session's own athletes) reply to a session of the group
 * through two server processes on one PostgreSQL. The yes order is read from the database
 * (`session_replies.yes_order`, the order the replies were numbered under the session's lock), the
 * only witness of who came first when the requests are all in flight together.
 */
describe.skipIf(!postgresAnswers)(
  "Members of a group racing for a session's places through two instances on one PostgreSQL",
  () => {
    let deployment: Deployment
    let a: ServerProcess
    let b: ServerProcess
    let principals: Principals
    /** The same role on instance A and on instance B, alternately: request i goes to A when i is even. */
    let on: (role: "ADMIN" | "COACH") => (i: number) => Caller
    let groupName: string
    let athletes: ReadonlyArray<number>

    beforeAll(async () => {
      deployment = await deploy("server")
      ;[a, b] = await Promise.all([deployment.start(), deployment.start()])
      principals = await setUpPrincipals(urlOf(a.port))
      on = (role) => (i) => principals.as(role, urlOf(i % 2 === 0 ? a.port : b.port))
      const admin = on("ADMIN")
      const root = expectStatus(
        await admin(0).post("/groups", { name: "Club", parentId: null, coachIds: [] }),
        201,
        "root"
      )
        .body as { id: number }
      groupName = "U12 racers"
      const group = expectStatus(
        await admin(1).post("/groups", { name: groupName, parentId: root.id, coachIds: [] }),
        201,
        "group"
      ).body as { id: number }
      athletes = await Promise.all(Array.from({ length: members }, async (_, i) => {
        const athlete = expectStatus(await admin(i).post("/athletes/create", { name: `Racer ${i}` }), 201, "athlete")
          .body as { id: number }
        expectStatus(
          await admin(i + 1).post(`/groups/${group.id}/memberships`, { athleteId: athlete.id, from: "2020-01-01" }),
          201,
          "membership"
        )
        return athlete.id
      }))
    })
    afterAll(async () => {
      await deployment?.release()
    })

    const readReplies = async (sessionId: number, i: number) =>
      expectStatus(await on("COACH")(i).get(`/attendance/sessions/${sessionId}/replies`), 200, "replies")
        .body as SessionReplies
    /** The athletes in the order their yes was numbered, under the session's lock. */
    const yesOrder = async (sessionId: number) =>
      (await deployment.sql!.query<{ athlete_id: string }>(
        `SELECT athlete_id FROM session_replies WHERE session_id = ${sessionId} AND answer = 'yes' ORDER BY yes_order`
      )).map((row) => Number(row.athlete_id))
    const answered = (reply: Reply) => (expectStatus(reply, 200, "reply").body as ReadonlyArray<ReplyDto>)[0]!
    const ids = (roster: SessionReplies, state: string) =>
      roster.replies.filter((r) => r.state === state).map((r) => r.athleteId)

    it(
      `${members} members say yes at once to ${capacity} places through both instances: exactly ${capacity} confirmed, the rest waiting in yes order; then the ${capacity} confirmed say no at once: exactly the next ${capacity} promoted`,
      async () => {
        for (let round = 0; round < budget.instancesRounds; round++) {
          const coach = on("COACH")
          const session = expectStatus(
            await coach(round).post("/session/create", {
              name: `Race ${round}`,
              creneau: "2099-03-02T18:00:00",
              groupe: groupName,
              coachId: principals.coachId
            }),
            201,
            "session"
          ).body as { id: number }
          expectStatus(
            await coach(round + 1).put(`/attendance/sessions/${session.id}/settings`, { capacity }),
            200,
            "capacity"
          )
          const reply = (i: number, athleteId: number, answer: string) =>
            coach(i).put(`/attendance/athletes/${athleteId}/replies/${session.id}`, { answer })

          // Every member's yes at once, alternately through A and B.
          const yeses = (await Promise.all(athletes.map((athleteId, i) => reply(i, athleteId, "yes")))).map(answered)
          const order = await yesOrder(session.id)
          expect(sorted(order)).toEqual(sorted(athletes))
          const full = await readReplies(session.id, round)
          expect([full.confirmed, full.waiting]).toEqual([capacity, members - capacity])
          expect(ids(full, "confirmed")).toEqual(order.slice(0, capacity))
          expect(ids(full, "waiting")).toEqual(order.slice(capacity))
          expect(full.replies.filter((r) => r.state === "waiting").map((r) => r.waitingPosition)).toEqual(
            Array.from({ length: members - capacity }, (_, i) => i + 1)
          )
          // Each answer, given mid-race, told the place the athlete still holds: nobody left meanwhile.
          for (const yes of yeses) {
            const now = full.replies.find((r) => r.athleteId === yes.athleteId)!
            expect([yes.state, yes.waitingPosition]).toEqual([now.state, now.waitingPosition])
          }

          // The confirmed all say no at once, alternately through B and A: the next ones on the list move up.
          const confirmed = order.slice(0, capacity)
          const noes = (await Promise.all(confirmed.map((athleteId, i) => reply(i + 1, athleteId, "no")))).map(answered)
          expect(noes.map((r) => r.state)).toEqual(confirmed.map(() => "declined"))
          const after = await readReplies(session.id, round + 1)
          expect([after.confirmed, after.waiting]).toEqual([capacity, members - 2 * capacity])
          expect(ids(after, "confirmed")).toEqual(order.slice(capacity, 2 * capacity))
          expect(ids(after, "waiting")).toEqual(order.slice(2 * capacity))
          expect(after.replies.filter((r) => r.state === "waiting").map((r) => r.waitingPosition)).toEqual(
            Array.from({ length: members - 2 * capacity }, (_, i) => i + 1)
          )
          expect(sorted(ids(after, "declined"))).toEqual(sorted(confirmed))
          // One promotion event per place freed, in list order: each written under the session's lock by
          // the transaction that freed the place.
          const [promotions] = await deployment.sql!.query<{ athletes: ReadonlyArray<number> }>(
            `SELECT coalesce(jsonb_agg((data->>'athleteId')::bigint ORDER BY id), '[]') AS athletes
           FROM attendance_events WHERE session_id = ${session.id} AND type = 'promotion'`
          )
          expect(promotions!.athletes.map(Number)).toEqual(order.slice(capacity, 2 * capacity))
        }
      },
      120_000
    )
  }
)
