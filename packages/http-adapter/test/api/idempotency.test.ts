import { idempotentWrites, replayed, unique, withKey } from "@club/test-support/rest"
import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectProblem } from "@club/test-support/expectations"

const club = clubForFile()

describe("Idempotency-Key on REST writes, in process", () => {
  idempotentWrites(club)

  // A `Request` built here can leave out content-length, as an HTTP/2 client may (the server's suite sends h2c).
  it("tells bodies apart without content-length too, as an HTTP/2 client may send them", async () => {
    const unannounced = { ...withKey(), announceLength: false }
    const name = unique("Unannounced")
    expect((await club().coach.post("/session/create", { name }, unannounced)).status).toBe(201)
    expectProblem(
      await club().coach.post("/session/create", { name: `${name}-changed` }, unannounced),
      422,
      /different request/u
    )
    expect(replayed(await club().coach.post("/session/create", { name }, unannounced))).toBe("true")
  })
})
