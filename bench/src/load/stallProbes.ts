// The two clients the worst-inputs phase runs beside each case (src/phases/worstInputs.ts), in a
// process of their own, so that the bench reading a large answer never delays them and what they
// measure is the server's: another client polling `/health/live`, and an unrelated coach writing
// `POST /planning/sessions` back to back. Started by `fork` with the server's URL, the writer's
// token and coach id, and the hour its first session takes; the parent's "stop" ends both loops,
// and the answer is every latency measured.
import { setTimeout as sleep } from "node:timers/promises"

const [url, writerToken, coachIdText, firstSlotText] = process.argv.slice(2)
const coachId = Number(coachIdText)
let slot = Number(firstSlotText)
let running = true
const live: Array<number> = []
const writes: Array<number> = []
const failures: Array<string> = []

const liveLoop = async () => {
  while (running) {
    const started = performance.now()
    const reply = await fetch(`${url}/health/live`)
    await reply.arrayBuffer()
    live.push(performance.now() - started)
    await sleep(10)
  }
}

// Each session for the writer's coach alone, at an hour of its own far from any other case's, so
// that it is never refused as a double booking: what delays it is the locks and the server.
const writeLoop = async () => {
  while (running) {
    const hour = slot++
    const creneau = new Date(Date.UTC(2040, 0, 1) + hour * 3_600_000).toISOString().slice(0, 19)
    const started = performance.now()
    const reply = await fetch(`${url}/planning/sessions`, {
      method: "POST",
      headers: { authorization: `Bearer ${writerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `Writer ${hour}`, groupe: null, coachId, athleteIds: [], duree: 30, creneau })
    })
    await reply.arrayBuffer()
    writes.push(performance.now() - started)
    if (reply.status !== 201) failures.push(String(reply.status))
    await sleep(10)
  }
}

// The bench gone (interrupted), nothing is left to report to.
process.on("disconnect", () => process.exit(0))
const loops = Promise.all([liveLoop(), writeLoop()])
process.send!({ kind: "started" })
process.on("message", async (message) => {
  if (message !== "stop") return
  running = false
  await loops
  process.send!({ kind: "done", live, writes, failures, nextSlot: slot }, () => process.exit(0))
})
