import { describe, expect, it } from "vitest"
import { expectJson, expectProblem, expectUnauthenticated } from "../../expectations.ts"
import { athleteMember, type Club, coachMember, firstAdmin } from "../Club.ts"
import { createUser, login, meOf, tokenOf, unique, userDto } from "../records.ts"
import { expectNoSecretInAnyReply } from "../secrets.ts"

/** Waits until the clock has just entered a new second, so that what follows happens within one second. */
const atStartOfSecond = async () => {
  const second = Math.floor(Date.now() / 1000)
  while (Math.floor(Date.now() / 1000) === second) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** Login, the caller's user and the bearer tokens, on any harness. */
export const authentication = (club: () => Club) => {
  describe("POST /auth/login", () => {
    it("answers 200 {token, tokenType: 'Bearer', expiresIn: 3600, user: UserDTO}, for every role; the token is the caller's", async () => {
      const cases = [
        [firstAdmin, club().user.ADMIN],
        [coachMember, club().user.COACH],
        [athleteMember, club().user.ATHLETE]
      ] as const
      for (const [{ name, password }, user] of cases) {
        const reply = await login(club(), name, password)
        expectJson(reply, 200, { token: expect.any(String), tokenType: "Bearer", expiresIn: 3600, user })
        expectJson(await club().withToken((reply.body as { token: string }).token).get("/auth/me"), 200, meOf(user))
      }
    })

    it("answers the same 401 problem+json for an unknown name and for a wrong password", async () => {
      const user = await createUser(club(), { role: "ATHLETE" })
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

    it("answers 400 problem+json naming a missing field", async () => {
      expectProblem(await club().anonymous.post("/auth/login", { name: "athlete" }), 400, /^(.*; )?password: /u)
    })

    it("after 5 failures for a name from one address, the next attempt from there waits 1 s: 429 with Retry-After, even with the right password; then it logs in", async () => {
      const user = await createUser(club(), { role: "ATHLETE" })
      for (let attempt = 1; attempt <= 5; attempt++) {
        expectProblem(await login(club(), user.name, `wrong-${attempt}-password`), 401)
      }
      const throttled = await login(club(), user.name, user.password)
      expectProblem(throttled, 429)
      expect(throttled.headers.get("retry-after"), "Retry-After header").toBe("1")
      expect(throttled.body).toMatchObject({ detail: "Too many failed attempts; retry in 1 second" })
      // Only that name waits: the address has failures left.
      expect((await login(club(), coachMember.name, coachMember.password)).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect((await login(club(), user.name, user.password)).status).toBe(200)
    })

    it("forgets a name's failures at an address after a successful login from there", async () => {
      const user = await createUser(club(), { role: "ATHLETE" })
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
      const user = await createUser(club())
      const token = await tokenOf(club(), user.name, user.password)
      expectJson(await club().withToken(token).get("/auth/me"), 200, meOf(userDto(user.id, user.name, "COACH")))
    })

    it("answers 401 problem+json with WWW-Authenticate: Bearer without a token", async () => {
      expectUnauthenticated(await club().anonymous.get("/auth/me"), /^Bearer$/u)
    })
  })

  describe("bearer tokens", () => {
    it("refuses a token the server never issued with 401 problem+json and WWW-Authenticate: Bearer error=\"invalid_token\"", async () => {
      for (const token of ["not-a-token", "forged", "abc.def.ghi"]) {
        for (
          const reply of [
            await club().withToken(token).get("/auth/me"),
            await club().withToken(token).post("/athletes/all")
          ]
        ) {
          expectUnauthenticated(reply, /^Bearer error="invalid_token"$/u)
        }
      }
    })

    it("refuses a credential presented with another scheme than Bearer", async () => {
      const basic = Buffer.from(`${firstAdmin.name}:${firstAdmin.password}`).toString("base64")
      for (const authorization of [`Basic ${basic}`, `Basic ${club().token.ADMIN}`, club().token.ADMIN]) {
        expectUnauthenticated(await club().anonymous.get("/auth/me", { headers: { authorization } }))
      }
    })

    it("no longer accepts a deleted user's token", async () => {
      const user = await createUser(club(), { role: "ATHLETE" })
      const token = await tokenOf(club(), user.name, user.password)
      expect((await club().withToken(token).get("/auth/me")).status).toBe(200)
      expect((await club().admin.delete(`/users/delete/${user.id}`)).status).toBe(204)
      expectUnauthenticated(await club().withToken(token).get("/auth/me"))
      expectUnauthenticated(await club().withToken(token).get("/activite/all"))
    })

    it("no longer accepts the old token after a role change (PUT /users/update/{id}); a new login carries the new role", async () => {
      const user = await createUser(club())
      const token = await tokenOf(club(), user.name, user.password)
      expect((await club().withToken(token).get("/session/all")).status).toBe(200)
      expect((await club().admin.put(`/users/update/${user.id}`, { role: "ATHLETE" })).status).toBe(200)
      expectUnauthenticated(await club().withToken(token).get("/session/all"))
      expectUnauthenticated(await club().withToken(token).post("/session/create", { name: "as a former coach" }))
      const fresh = await tokenOf(club(), user.name, user.password)
      expectJson(await club().withToken(fresh).get("/auth/me"), 200, meOf(userDto(user.id, user.name, "ATHLETE")))
      expectProblem(await club().withToken(fresh).post("/session/create", { name: "as an athlete" }), 403)
    })

    it("no longer accepts a token issued before a password change, even within the same second; a new login works", async () => {
      const user = await createUser(club(), { role: "ATHLETE" })
      const newPassword = unique("changed")
      club().passwords.add(newPassword)
      await atStartOfSecond()
      const token = await tokenOf(club(), user.name, user.password)
      expect((await club().admin.put(`/users/update/${user.id}`, { password: newPassword })).status).toBe(200)
      expectUnauthenticated(await club().withToken(token).get("/auth/me"))
      const fresh = await tokenOf(club(), user.name, newPassword)
      expectJson(await club().withToken(fresh).get("/auth/me"), 200, meOf(userDto(user.id, user.name, "ATHLETE")))
      expectProblem(await login(club(), user.name, user.password), 401)
    })
  })

  it("never answers a password or a password hash (every answer so far checked)", () => {
    expectNoSecretInAnyReply(club())
  })
}
