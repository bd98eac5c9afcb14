import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectJson, expectProblem, expectUnauthenticated } from "@club/test-support/expectations"
import { firstAdmin } from "../support/InProcessApp.ts"

const club = clubForFile()
const login = (name: string, password: string) => club().send("POST", "/auth/login", { json: { name, password } })

describe("POST /auth/login", () => {
  it("answers 200 {token, tokenType: 'Bearer', expiresIn: 3600, user: UserDTO}", async () => {
    const reply = await login(firstAdmin.name, firstAdmin.password)
    expectJson(reply, 200, {
      token: expect.any(String),
      tokenType: "Bearer",
      expiresIn: 3600,
      user: { id: club().userId.ADMIN, name: firstAdmin.name, email: null, role: "ADMIN" }
    })
  })

  it("answers the same 401 problem+json for an unknown name and for a wrong password", async () => {
    const [unknown, wrong] = [await login("nobody", "password-123"), await login("athlete", "wrong-password")]
    expectProblem(unknown, 401)
    expectProblem(wrong, 401)
    expect({ ...(wrong.body as object), instance: undefined }).toEqual({
      ...(unknown.body as object),
      instance: undefined
    })
  })

  it("answers 400 problem+json naming a missing field", async () => {
    expectProblem(await club().send("POST", "/auth/login", { json: { name: "athlete" } }), 400, /^(.*; )?password: /u)
  })
})

describe("GET /auth/me", () => {
  it("answers the caller's UserDTO, to every role", async () => {
    for (const role of ["ADMIN", "COACH", "ATHLETE"] as const) {
      expectJson(await club().as(role).get("/auth/me"), 200, expect.objectContaining({ id: club().userId[role], role }))
    }
  })

  it("refuses a missing token, a bad one and another scheme with 401 and the Bearer challenge", async () => {
    expectUnauthenticated(await club().anonymous.get("/auth/me"), /^Bearer$/u)
    expectUnauthenticated(await club().withToken("forged").get("/auth/me"), /^Bearer error="invalid_token"$/u)
    expectUnauthenticated(
      await club().anonymous.get("/auth/me", { headers: { authorization: `Basic ${club().token.ADMIN}` } })
    )
  })
})

describe("login throttling", () => {
  it("after 5 failures for a name from one address, the next attempt waits: 429 problem+json with Retry-After", async () => {
    for (let i = 0; i < 5; i++) expectProblem(await login("coach", `wrong-${i}`), 401)
    const refused = await login("coach", "coach-password-0")
    expectProblem(refused, 429)
    expect(refused.headers.get("retry-after")).toBe("1")
  })
})
