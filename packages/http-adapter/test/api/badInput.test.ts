import { badInput, notUtf8 } from "@club/test-support/rest"
import { describe, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectProblem } from "@club/test-support/expectations"

const club = clubForFile()

describe("Bad input, in process", () => {
  badInput(club)

  // A `Request` built here can leave out content-length, as an HTTP/2 client may (the server's suite sends h2c).
  it("a body that is not UTF-8 and comes without content-length: 400 problem+json naming the body", async () => {
    const reply = await club().admin.post("/coaches/create", undefined, { body: notUtf8, announceLength: false })
    expectProblem(reply, 400, "body: Expected JSON text in UTF-8, got bytes that are not UTF-8")
  })
})
