import { describe, expect, it } from "vitest"
import { sleep } from "../support/requests.ts"
import { type DatabaseKind, postgresAnswers } from "./support/Deployment.ts"
import { databaseLabel, oneInstance } from "./support/oneInstance.ts"
import { expectStatus } from "./support/principals.ts"

const kinds: ReadonlyArray<DatabaseKind> = ["embedded", "server"]
for (const kind of kinds) {
  describe.skipIf(kind === "server" && !postgresAnswers)(
    `Clients that give up on their writes (${databaseLabel(kind)})`,
    () => {
      const shared = oneInstance(kind)

      it("leave the service answering every later request, and each abandoned write whole or absent", async () => {
        const { baseUrl, principals } = shared
        const coach = principals.as("COACH", baseUrl)
        const athletes = await Promise.all(Array.from({ length: 5 }, async (_, i) =>
          (expectStatus(
            await principals.as("ADMIN", baseUrl).post("/athletes/create", { name: `Leaver ${i}` }),
            201,
            "athlete"
          ).body as { id: number }).id))
        const sessions = await Promise.all(
          Array.from(
            { length: 10 },
            async (_, i) =>
              (expectStatus(await coach.post("/session/create", { name: `abandoned-${i}` }), 201, "session").body as {
                id: number
              }).id
          )
        )

        // As a load generator stops: 50 clients writing back to back, all given up at once mid-request.
        for (let round = 0; round < 3; round++) {
          const controller = new AbortController()
          let stopped = false
          const writer = async (i: number) => {
            for (let n = 0; !stopped; n++) {
              const path = i % 2 === 0 ? `/session/update/${sessions[(i + n) % sessions.length]}` : "/session/create"
              const body = i % 2 === 0
                ? { athleteIds: athletes.slice(0, 1 + (n % athletes.length)), duree: n }
                : { name: `gone-${round}-${i}-${n}`, athleteIds: athletes }
              await fetch(`${baseUrl}${path}`, {
                method: i % 2 === 0 ? "PUT" : "POST",
                headers: { authorization: `Bearer ${principals.token.COACH}`, "content-type": "application/json" },
                body: JSON.stringify(body),
                signal: controller.signal
              }).then((reply) => reply.arrayBuffer()).catch(() => undefined)
            }
          }
          const writers = Array.from({ length: 50 }, (_, i) => writer(i))
          await sleep(1_000 + Math.floor(Math.random() * 500))
          stopped = true
          controller.abort()
          await Promise.all(writers)
        }

        // Every request after that is answered as usual: none is refused for want of a database connection.
        const replies = await Promise.all(Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0
            ? coach.get(`/session/${sessions[i % sessions.length]}`)
            : coach.post("/session/create", { name: `after-${i}`, athleteIds: athletes })))
        expect(replies.map((reply) => reply.status)).toEqual(replies.map((_, i) => (i % 2 === 0 ? 200 : 201)))

        // A session created by an abandoned request has all its athletes or does not exist.
        const all = expectStatus(await coach.get("/session/all"), 200, "all").body as Array<
          { name: string | null; athleteIds: Array<number> }
        >
        for (const session of all.filter((s) => s.name?.startsWith("gone-") === true)) {
          expect([...session.athleteIds].sort((a, b) => a - b)).toEqual([...athletes].sort((a, b) => a - b))
        }
      })
    }
  )
}
