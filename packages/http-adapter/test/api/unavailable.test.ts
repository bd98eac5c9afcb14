import { Readiness, SessionRepository, StoreUnavailable } from "@club/core"
import { Effect, Layer, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectJson, expectProblem } from "@club/test-support/expectations"
import { makeInProcessApp } from "../support/InProcessApp.ts"

/**
 * A store that cannot be reached: the in-memory ports never fail so, so the session repository is
 * replaced by one whose every method dies as the PostgreSQL adapter's do during an outage (core's
 * `StoreUnavailable`). The use-cases, the other ports and the app are the real ones.
 */
const outage = () => new StoreUnavailable({ cause: new Error("connect ECONNREFUSED 127.0.0.1:5432") })

const SessionStoreDown = Layer.succeed(
  SessionRepository,
  new Proxy({}, {
    // `stream` answers a Stream, every other method an Effect.
    get: (_, method) => () => method === "stream" ? Stream.die(outage()) : Effect.die(outage())
  }) as SessionRepository["Service"]
)

const club = clubForFile({ ports: SessionStoreDown })

describe("while the store cannot be reached", () => {
  it("a read and a write answer 503 problem+json asking to retry, whatever the endpoint's own failure shape", async () => {
    expectProblem(await club().coach.get("/session/1"), 503, "The database is unreachable; retry later")
    expectProblem(await club().coach.get("/session/all"), 503, "The database is unreachable; retry later")
    expectProblem(
      await club().coach.post("/session/create", { name: "x" }),
      503,
      "The database is unreachable; retry later"
    )
  })

  it("what needs no session still works", async () => {
    expectJson(
      await club().admin.get(`/athletes/${club().athleteId}`),
      200,
      expect.objectContaining({ id: club().athleteId })
    )
  })
})

describe("GET /health/ready and /health/live", () => {
  it("ready answers 503 problem+json while readiness says no; live still answers ok", async () => {
    const app = makeInProcessApp({ readiness: Layer.succeed(Readiness)({ check: Effect.succeed(false) }) })
    try {
      expectProblem(await app.send("GET", "/health/ready"), 503)
      expectJson(await app.send("GET", "/health/live"), 200, { status: "ok" })
    } finally {
      await app.dispose()
    }
  })

  it("ready answers {status: 'ready'} when readiness says yes", async () => {
    expectJson(await club().anonymous.get("/health/ready"), 200, { status: "ready" })
  })
})
