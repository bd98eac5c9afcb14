import { expect, it } from "vitest"
import { onEveryDatabase, unique } from "./support/club.ts"
import { expectEmpty, expectStatus } from "@club/test-support/expectations"
import {
  allSessions,
  createAthlete,
  createSession,
  readSession,
  sessionsOfAthlete,
  sorted
} from "@club/test-support/rest"

const parallel = 50

await onEveryDatabase("Concurrent requests", (club) => {
  it("50 parallel POST /session/create leave exactly 50 new sessions, with distinct ids", async () => {
    const before = await allSessions(club())
    const names = Array.from({ length: parallel }, (_, i) => unique(`parallel-${i}`))
    const replies = await Promise.all(
      names.map((name) => club().coach.post("/session/create", { name, athleteIds: [club().athleteId] }))
    )
    for (const reply of replies) expectStatus(reply, 201)
    const ids = replies.map((reply) => (reply.body as { id: number }).id)
    expect(new Set(ids).size).toBe(parallel)
    const after = await allSessions(club())
    expect(after).toHaveLength(before.length + parallel)
    const created = after.filter((session) => !before.some((old) => old.id === session.id))
    expect(sorted(created.map((session) => session.id))).toEqual(sorted(ids))
    expect(created.map((session) => session.name).sort()).toEqual([...names].sort())
    const ofAthlete = (await sessionsOfAthlete(club(), club().athleteId)).map((summary) => summary.id)
    for (const id of ids) expect(ofAthlete.filter((other) => other === id)).toHaveLength(1)
  })

  it("50 parallel PUT /session/update/{id} of athleteIds leave the session with exactly one of the submitted sets", async () => {
    const athletes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createAthlete(club(), { name: `Pool ${i}` }))
    )
    const pool = athletes.map((athlete) => athlete.id)
    // 50 different sets: windows of 1 to 11 athletes, starting at different places of the pool.
    const sets = Array.from({ length: parallel }, (_, i) => {
      const [size, start] = [1 + (i % 11), Math.floor(i / 11) * 2]
      return sorted(Array.from({ length: size }, (_, k) => pool[(start + k) % pool.length]!))
    })
    expect(new Set(sets.map((set) => set.join(","))).size).toBe(parallel)
    const session = await createSession(club(), { name: unique("contended"), athleteIds: [pool[0]!] })

    const replies = await Promise.all(
      sets.map((athleteIds) => club().coach.put(`/session/update/${session.id}`, { athleteIds }))
    )
    for (const reply of replies) expectEmpty(reply, 204)

    const final = sorted((await readSession(club(), session.id)).athleteIds)
    expect(sets.map((set) => set.join(","))).toContain(final.join(","))
    // No lost or duplicated membership rows: each athlete lists the session once exactly when it is in the set.
    for (const athlete of pool) {
      const listed = (await sessionsOfAthlete(club(), athlete)).filter((summary) => summary.id === session.id)
      expect(listed, `athlete ${athlete}`).toHaveLength(final.includes(athlete) ? 1 : 0)
    }
  })
})
