import { describe, expect, it } from "vitest"
import { rawClient } from "../reliability/support/rawHttp.ts"
import { adminName, adminPassword, type Club, onEveryDatabase, unique, type UserDto } from "./support/club.ts"
import { expectJson, expectProblem, expectUnauthenticated } from "@club/test-support/expectations"
import { expectNoSecretInAnyReply } from "./support/secrets.ts"
import { claimsOf, nowSeconds, signToken } from "./support/tokens.ts"

const createUser = async (club: Club, role: "ADMIN" | "COACH" | "ATHLETE" = "ATHLETE") => {
  const password = unique("password")
  club.passwords.add(password)
  const reply = await club.admin.post("/users/create", { name: unique(role.toLowerCase()), role, password })
  if (reply.status !== 201) throw new Error(`Creating a user failed: ${reply.status} ${reply.text}`)
  return { ...(reply.body as UserDto), password }
}

const login = (club: Club, name: string, password: string) => {
  club.passwords.add(password)
  return club.anonymous.post("/auth/login", { name, password })
}

const tokenOf = async (club: Club, name: string, password: string) => {
  const reply = await login(club, name, password)
  expect(reply.status, reply.text).toBe(200)
  return (reply.body as { token: string }).token
}

/** Waits until the clock has just entered a new second, so that what follows happens within one second. */
const atStartOfSecond = async () => {
  const second = nowSeconds()
  while (nowSeconds() === second) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** The failed logins (401) this server has counted for the test client's address. */
const failedLogins = (club: Club) =>
  club.replies.filter((reply) => reply.path === "/auth/login" && reply.status === 401).length

await onEveryDatabase("Authentication", (club) => {
  describe("POST /auth/login", () => {
    it("answers 200 {token, tokenType: 'Bearer', expiresIn: 3600, user: UserDTO}, for every role", async () => {
      const cases = [
        [adminName, adminPassword, club().user.ADMIN],
        ["coach", "coach-password-0", club().user.COACH],
        ["athlete", "athlete-password-0", club().user.ATHLETE]
      ] as const
      for (const [name, password, user] of cases) {
        const reply = await login(club(), name, password)
        expectJson(reply, 200, { token: expect.any(String), tokenType: "Bearer", expiresIn: 3600, user })
        const token = (reply.body as { token: string }).token
        expect(claimsOf(token).exp - claimsOf(token).iat).toBe(3600)
        expectJson(await club().withToken(token).get("/auth/me"), 200, user)
      }
    })

    it("answers the same 401 problem+json for an unknown name and for a wrong password", async () => {
      const user = await createUser(club())
      const [unknownName, wrongPassword] = [
        await login(club(), unique("nobody"), user.password),
        await login(club(), user.name, `${user.password}-wrong`)
      ]
      expectProblem(unknownName, 401)
      expectProblem(wrongPassword, 401)
      // The same problem, but for the id of the request each answers.
      const { requestId: _wrong, ...wrong } = wrongPassword.body as Record<string, unknown>
      const { requestId: _unknown, ...unknown } = unknownName.body as Record<string, unknown>
      expect(wrong).toEqual(unknown)
      expect(wrongPassword.text).not.toMatch(/password.*wrong|unknown|no such/iu)
    })

    it("after 5 failures for a name from one address, the next attempt from there waits 1 s: 429 with Retry-After, even with the right password; then it logs in", async () => {
      const user = await createUser(club())
      for (let attempt = 1; attempt <= 5; attempt++) {
        expectProblem(await login(club(), user.name, `wrong-${attempt}-password`), 401)
      }
      const throttled = await login(club(), user.name, user.password)
      expectProblem(throttled, 429)
      expect(throttled.headers.get("retry-after"), "Retry-After header").toBe("1")
      expect(throttled.body).toMatchObject({ detail: "Too many failed attempts; retry in 1 second" })
      // Only that name waits: the address has failures left.
      expect((await login(club(), "coach", "coach-password-0")).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect((await login(club(), user.name, user.password)).status).toBe(200)
    })

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

    it("forgets a name's failures at an address after a successful login from there", async () => {
      const user = await createUser(club())
      for (let attempt = 1; attempt <= 4; attempt++) {
        expectProblem(await login(club(), user.name, `wrong-${attempt}-password`), 401)
      }
      expect((await login(club(), user.name, user.password)).status).toBe(200)
      // 5 free failures again, not 1.
      for (let attempt = 1; attempt <= 5; attempt++) {
        expectProblem(await login(club(), user.name, `again-${attempt}-password`), 401)
      }
      expectProblem(await login(club(), user.name, user.password), 429)
    })
  })

  describe("GET /auth/me", () => {
    it("answers 200 with the caller's UserDTO", async () => {
      const user = await createUser(club(), "COACH")
      const token = await tokenOf(club(), user.name, user.password)
      expectJson(await club().withToken(token).get("/auth/me"), 200, {
        id: user.id,
        name: user.name,
        email: null,
        role: "COACH"
      })
    })

    it("answers 401 problem+json with WWW-Authenticate: Bearer without a token", async () => {
      expectUnauthenticated(await club().anonymous.get("/auth/me"))
    })
  })

  describe("bearer tokens", () => {
    const refused = (club: Club) => {
      const { ATHLETE: athlete } = club.user
      const now = nowSeconds()
      const valid = { sub: String(athlete.id), role: athlete.role, iat: now - 10, exp: now + 3600 }
      const [header, payload, signature] = club.token.ATHLETE.split(".") as [string, string, string]
      const promoted = Buffer.from(JSON.stringify({ ...claimsOf(club.token.ATHLETE), role: "ADMIN" })).toString(
        "base64url"
      )
      return {
        "garbage": "not-a-token",
        "three garbage parts": "abc.def.ghi",
        "expired (signed with the server's secret)": signToken({ ...valid, iat: now - 7200, exp: now - 3600 }),
        "forged (signed with another secret)": signToken(valid, "another-secret-another-secret-another-secret"),
        "unsigned (alg: none)": `${
          Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")
        }.${payload}.`,
        "tampered (role changed, old signature)": `${header}.${promoted}.${signature}`,
        "for a user that does not exist": signToken({ ...valid, sub: "987654321" })
      }
    }

    it("refuses every bad token with 401 problem+json and WWW-Authenticate: Bearer", async () => {
      for (const [kind, token] of Object.entries(refused(club()))) {
        const reply = await club().withToken(token).get("/auth/me")
        expect(reply.status, kind).toBe(401)
        expectUnauthenticated(reply)
        expectUnauthenticated(await club().withToken(token).post("/athletes/all"))
      }
    })

    it("refuses a credential presented with another scheme than Bearer", async () => {
      const basic = Buffer.from(`${adminName}:${adminPassword}`).toString("base64")
      expectUnauthenticated(await club().anonymous.get("/auth/me", { headers: { authorization: `Basic ${basic}` } }))
      expectUnauthenticated(await club().anonymous.get("/auth/me", { headers: { authorization: club().token.ADMIN } }))
    })

    it("accepts a token signed as the server signs them (the checks above can pass)", async () => {
      const { ATHLETE: athlete } = club().user
      const now = nowSeconds()
      const token = signToken({ sub: String(athlete.id), role: "ATHLETE", iat: now, exp: now + 60 })
      expectJson(await club().withToken(token).get("/auth/me"), 200, athlete)
    })

    it("no longer accepts a deleted user's token", async () => {
      const user = await createUser(club())
      const token = await tokenOf(club(), user.name, user.password)
      expect((await club().withToken(token).get("/auth/me")).status).toBe(200)
      expect((await club().admin.delete(`/users/delete/${user.id}`)).status).toBe(204)
      expectUnauthenticated(await club().withToken(token).get("/auth/me"))
      expectUnauthenticated(await club().withToken(token).get("/activite/all"))
    })

    it("no longer accepts the old token after a role change (PUT /users/update/{id}); a new login carries the new role", async () => {
      const user = await createUser(club(), "COACH")
      const token = await tokenOf(club(), user.name, user.password)
      expect((await club().withToken(token).get("/session/all")).status).toBe(200)
      expect((await club().admin.put(`/users/update/${user.id}`, { role: "ATHLETE" })).status).toBe(200)
      expectUnauthenticated(await club().withToken(token).get("/session/all"))
      expectUnauthenticated(await club().withToken(token).post("/session/create", { name: "as a former coach" }))
      const fresh = await tokenOf(club(), user.name, user.password)
      expectJson(await club().withToken(fresh).get("/auth/me"), 200, {
        id: user.id,
        name: user.name,
        email: null,
        role: "ATHLETE"
      })
      expectProblem(await club().withToken(fresh).post("/session/create", { name: "as an athlete" }), 403)
    })

    it("no longer accepts a token issued before a password change, even within the same second; a new login works", async () => {
      const user = await createUser(club())
      const newPassword = unique("changed")
      club().passwords.add(newPassword)
      await atStartOfSecond()
      const token = await tokenOf(club(), user.name, user.password)
      expect((await club().admin.put(`/users/update/${user.id}`, { password: newPassword })).status).toBe(200)
      expectUnauthenticated(await club().withToken(token).get("/auth/me"))
      const fresh = await tokenOf(club(), user.name, newPassword)
      expectJson(await club().withToken(fresh).get("/auth/me"), 200, {
        id: user.id,
        name: user.name,
        email: null,
        role: "ATHLETE"
      })
      expectProblem(await login(club(), user.name, user.password), 401)
    })
  })

  it("never answers a password or a password hash (every answer of this file checked)", () => {
    expectNoSecretInAnyReply(club())
  })

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
