import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Caller } from "../rest/support/http.ts"
import { sleep } from "../support/requests.ts"
import { budget, isLongRun } from "./support/budget.ts"
import { type DatabaseKind, deploy, type Deployment, postgresAnswers } from "./support/Deployment.ts"
import { expectStatus, setUpPrincipals, urlOf } from "./support/principals.ts"
import { recordResult } from "./support/results.ts"

interface SessionDto {
  readonly id: number
  readonly name: string | null
  readonly athleteIds: ReadonlyArray<number>
  readonly activiteIds: ReadonlyArray<number>
}

/** What a writer meant a session to be: created in one request, with its athletes and the activities it takes over. */
interface Intended {
  readonly name: string
  readonly athleteIds: ReadonlyArray<number>
  readonly activiteIds: ReadonlyArray<number>
}

const sorted = (ids: ReadonlyArray<number>) => [...ids].sort((a, b) => a - b)
const writers = 8
const activitiesPerSession = 2

/** Athletes, and a holding session full of activities that the sessions created during the crash take over. */
const prepare = async (admin: Caller, coach: Caller, cycle: number) => {
  const athletes: Array<number> = []
  for (let i = 0; i < 10; i++) {
    athletes.push(
      (expectStatus(await admin.post("/athletes/create", { name: `Crash ${cycle} athlete ${i}` }), 201, "athlete")
        .body as { id: number }).id
    )
  }
  const holding = (expectStatus(await coach.post("/session/create", { name: `crash-${cycle}-holding` }), 201, "holding")
    .body as SessionDto).id
  const capacity = isLongRun ? 400 : 160
  await Promise.all(Array.from({ length: 8 }, async (_, worker) => {
    for (let i = worker; i < capacity; i += 8) {
      expectStatus(
        await coach.post("/activite/create", { name: `crash-${cycle}-pool-${i}`, sessionId: holding }),
        201,
        "pool activity"
      )
    }
  }))
  const pool = [
    ...(expectStatus(await coach.get(`/session/${holding}`), 200, "holding").body as SessionDto).activiteIds
  ]
  return { athletes, holding, pool }
}

/**
 * Writers create sessions (with athletes, taking activities over from the holding session) and
 * add an activity to each session they got, until the connection dies under them.
 */
const write = (
  coach: Caller,
  coachId: number,
  cycle: number,
  athletes: ReadonlyArray<number>,
  pool: ReadonlyArray<number>
) => {
  const intended = new Map<string, Intended>()
  const acknowledgedSessions = new Map<string, number>()
  const acknowledgedActivities: Array<{ readonly name: string; readonly sessionId: number }> = []
  let unanswered = 0
  let next = 0
  const writer = async () => {
    for (;;) {
      const index = next++
      // Once the holding session is empty, sessions are created with athletes only, until the kill.
      const take = pool.slice(index * activitiesPerSession, (index + 1) * activitiesPerSession)
      const plan: Intended = {
        name: `crash-${cycle}-session-${index}`,
        athleteIds: athletes.filter((_, k) => (index + k) % 3 === 0),
        activiteIds: take
      }
      intended.set(plan.name, plan)
      try {
        const reply = await coach.post("/session/create", { ...plan, coachId })
        if (reply.status !== 201) throw new Error(`session create answered ${reply.status} ${reply.text}`)
        const id = (reply.body as SessionDto).id
        acknowledgedSessions.set(plan.name, id)
        const activity = `crash-${cycle}-added-${index}`
        const added = await coach.post("/activite/create", { name: activity, sessionId: id })
        if (added.status !== 201) throw new Error(`activity create answered ${added.status} ${added.text}`)
        acknowledgedActivities.push({ name: activity, sessionId: id })
      } catch (error) {
        if (error instanceof Error && error.message.includes("answered")) throw error
        unanswered++
        return
      }
    }
  }
  const done = Promise.all(Array.from({ length: writers }, writer))
  return { intended, acknowledgedSessions, acknowledgedActivities, done, unanswered: () => unanswered }
}

const kinds: ReadonlyArray<DatabaseKind> = ["server", "embedded"]
for (const kind of kinds) {
  describe.skipIf(kind === "server" && !postgresAnswers)(
    `SIGKILL during writes (${kind === "server" ? "PostgreSQL server" : "embedded database, DATA_DIR on disk"})`,
    () => {
      let deployment: Deployment
      beforeAll(async () => {
        deployment = await deploy(kind, { dataOnDisk: true })
      })
      afterAll(() => deployment?.release())

      it(
        `after a restart every acknowledged write is there and no session is half-written (${budget.crashCycles} kill(s))`,
        async () => {
          let server = await deployment.start()
          const principals = await setUpPrincipals(urlOf(server.port))
          const cycles: Array<Record<string, unknown>> = []
          for (let cycle = 0; cycle < budget.crashCycles; cycle++) {
            const { athletes, holding, pool } = await prepare(
              principals.as("ADMIN", urlOf(server.port)),
              principals.as("COACH", urlOf(server.port)),
              cycle
            )
            const writes = write(principals.as("COACH", urlOf(server.port)), principals.coachId, cycle, athletes, pool)
            // Killed once the writes are well under way, at a moment that varies.
            await sleep(300 + Math.floor(Math.random() * 500))
            server.child.kill("SIGKILL")
            await server.exited
            await writes.done
            const restartStarted = performance.now()
            server = await deployment.start()
            const restartMs = Math.round(performance.now() - restartStarted)

            const coach = principals.as("COACH", urlOf(server.port))
            const sessions = expectStatus(await coach.get("/session/all"), 200, "sessions").body as Array<SessionDto>
            const activities = expectStatus(await coach.get("/activite/all"), 200, "activities").body as Array<
              { name: string; sessionId: number | null }
            >
            const byName = new Map<string, Array<SessionDto>>()
            for (const session of sessions) {
              byName.set(session.name ?? "", [...(byName.get(session.name ?? "") ?? []), session])
            }
            const byId = new Map(sessions.map((session) => [session.id, session]))

            expect(
              new Set(sessions.map((s) => s.id)).size,
              "distinct session ids"
            ).toBe(sessions.length)
            // Every acknowledged session is there, whole: its athletes exactly, the activities it took over.
            for (const [name, id] of writes.acknowledgedSessions) {
              const session = byId.get(id)
              expect(session?.name, `acknowledged session ${name} (${id})`).toBe(name)
              expect(sorted(session!.athleteIds), `athletes of ${name}`).toEqual(
                sorted(writes.intended.get(name)!.athleteIds)
              )
              expect(session!.activiteIds, `activities of ${name}`).toEqual(
                expect.arrayContaining([...writes.intended.get(name)!.activiteIds])
              )
            }
            // Every session that exists, acknowledged or not, is whole and exists once; the others took nothing.
            const inHolding = new Set(byId.get(holding)!.activiteIds)
            let committedUnacknowledged = 0
            for (const plan of writes.intended.values()) {
              const found = byName.get(plan.name) ?? []
              expect(found.length, `sessions named ${plan.name}`).toBeLessThanOrEqual(1)
              if (found.length === 1) {
                if (!writes.acknowledgedSessions.has(plan.name)) committedUnacknowledged++
                expect(sorted(found[0]!.athleteIds), `athletes of ${plan.name}`).toEqual(sorted(plan.athleteIds))
                for (const activity of plan.activiteIds) {
                  expect(found[0]!.activiteIds, `${plan.name} took activity ${activity}`).toContain(activity)
                  expect(inHolding.has(activity), `activity ${activity} left the holding session`).toBe(false)
                }
              } else {
                for (const activity of plan.activiteIds) {
                  expect(inHolding.has(activity), `activity ${activity} of the absent ${plan.name} stayed`).toBe(true)
                }
              }
            }
            // Every acknowledged activity is there, in its session.
            for (const { name, sessionId } of writes.acknowledgedActivities) {
              expect(activities.filter((a) => a.name === name).map((a) => a.sessionId), `activity ${name}`).toEqual([
                sessionId
              ])
            }
            cycles.push({
              acknowledgedSessions: writes.acknowledgedSessions.size,
              acknowledgedActivities: writes.acknowledgedActivities.length,
              inFlightAtKill: writes.unanswered(),
              committedButUnacknowledged: committedUnacknowledged,
              restartMs
            })
            expect(writes.acknowledgedSessions.size, "writes were acknowledged before the kill").toBeGreaterThan(5)
            expect(writes.unanswered(), "writes were in flight at the kill").toBeGreaterThan(0)
          }
          recordResult(`crash-${kind}`, { cycles })
        },
        120_000 + budget.crashCycles * 60_000
      )
    }
  )
}
