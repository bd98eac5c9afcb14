import { describe, expect, it } from "vitest"
import { rawClient } from "../reliability/support/rawHttp.ts"
import { athleteMember, authentication, coachMember, firstAdmin, login, meOf, unique } from "@club/test-support/rest"
import { adminName, adminPassword, type Club, onEveryDatabase } from "./support/club.ts"
import { expectJson, expectProblem, expectUnauthenticated } from "@club/test-support/expectations"
import { claimsOf, nowSeconds, signToken } from "./support/tokens.ts"

/** The failed logins (401) this server has counted for the test client's address. */
const failedLogins = (club: Club) =>
  club.replies.filter((reply) => reply.path === "/auth/login" && reply.status === 401).length

/** Tokens the server must refuse, each made as a JWT could be: expired, forged, unsigned, tampered. */
const refusedJwts = (club: Club) => {
  const { ATHLETE: athlete } = club.user
  const now = nowSeconds()
  const valid = { sub: String(athlete.id), role: athlete.role, iat: now - 10, exp: now + 3600 }
  const [header, payload, signature] = club.token.ATHLETE.split(".") as [string, string, string]
  const promoted = Buffer.from(JSON.stringify({ ...claimsOf(club.token.ATHLETE), role: "ADMIN" })).toString(
    "base64url"
  )
  return {
    "expired (signed with the server's secret)": signToken({ ...valid, iat: now - 7200, exp: now - 3600 }),
    "forged (signed with another secret)": signToken(valid, "another-secret-another-secret-another-secret"),
    "unsigned (alg: none)": `${
      Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")
    }.${payload}.`,
    "tampered (role changed, old signature)": `${header}.${promoted}.${signature}`,
    "for a user that does not exist": signToken({ ...valid, sub: "987654321" })
  }
}

await onEveryDatabase("Authentication", (club) => {
  // The server's tokens are HS256 JWTs (CONTRACT.md); the in-process signer's are opaque.
  describe("bearer tokens as the server signs them: HS256 JWTs", () => {
    it("a login's token is a JWT whose exp is its iat + 3600, for every role", async () => {
      for (const { name, password } of [firstAdmin, coachMember, athleteMember]) {
        const { token } = (await login(club(), name, password)).body as { token: string }
        expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/u)
        expect(claimsOf(token).exp - claimsOf(token).iat).toBe(3600)
      }
    })

    it("refuses every bad token with 401 problem+json and WWW-Authenticate: Bearer", async () => {
      for (const [kind, token] of Object.entries(refusedJwts(club()))) {
        const reply = await club().withToken(token).get("/auth/me")
        expect(reply.status, kind).toBe(401)
        expectUnauthenticated(reply)
        expectUnauthenticated(await club().withToken(token).post("/athletes/all"))
      }
    })

    it("accepts a token signed as the server signs them (the checks above can pass)", async () => {
      const { ATHLETE: athlete } = club().user
      const now = nowSeconds()
      const token = signToken({ sub: String(athlete.id), role: "ATHLETE", iat: now, exp: now + 60 })
      expectJson(await club().withToken(token).get("/auth/me"), 200, meOf(athlete))
    })
  })

  // Another client address needs another connection, from another local address.
  it("a client that fails again and again for a user's name cannot stop that user logging in from another address", async () => {
    // Linux routes all of 127.0.0.0/8 to the loopback: 127.0.0.2 is another client of the same server.
    const attacker = rawClient(club().server.port, { localAddress: "127.0.0.2" })
    const attempt = (password: string) => {
      club().passwords.add(password)
      return attacker.send({
        method: "POST",
        path: "/auth/login",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: adminName, password })
      })
    }
    const statuses: Array<number> = []
    for (let i = 1; i <= 10; i++) statuses.push((await attempt(`wrong-${i}-password`)).status)
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses).toContain(429)
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true)
    // The admin, from the test's own address, knows the password: nothing the attacker did stops it.
    expect((await login(club(), adminName, adminPassword)).status).toBe(200)
    attacker.close()
  })

  authentication(club)

  // Last: it makes every login from the test's address on this server wait.
  it("after 20 failures from one address, whatever the names, every login from it waits, the right password too", async () => {
    let failures = failedLogins(club())
    expect(failures).toBeLessThan(20)
    while (failures < 20) {
      expectProblem(await login(club(), unique("stranger"), "wrong-password"), 401)
      failures++
    }
    const throttled = await login(club(), adminName, adminPassword)
    expectProblem(throttled, 429)
    expect(throttled.headers.get("retry-after")).toBe("1")
  })
})
