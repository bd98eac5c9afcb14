import { describe, expect, it } from "vitest"
import { expectEmpty, expectJson, expectProblem, expectUnauthenticated } from "../../expectations.ts"
import { type Club, firstAdmin } from "../Club.ts"
import {
  allAthletes,
  createAthlete,
  createCoach,
  createUser,
  expectGeneratedIdsAvoid,
  idAhead,
  login,
  missingId,
  tokenOf,
  unique,
  meOf,
  userDto
} from "../records.ts"
import { expectNoSecretInAnyReply } from "../secrets.ts"

/** CONTRACT.md's user and admin endpoints, login and the caller's own user, on any harness. */
export const userAndAdminEndpoints = (club: () => Club) => {
  describe("POST /users/create (Admin)", () => {
    it("answers 201 with the UserDTO {id, name, email, role}, the role in any spelling stored upper-case", async () => {
      const name = unique("Sam")
      const password = unique("secret")
      club().passwords.add(password)
      const reply = await club().admin.post("/users/create", { name, email: "sam@club.test", role: "coach", password })
      expect(reply.status).toBe(201)
      const id = (reply.body as { id: number }).id
      expectJson(reply, 201, userDto(id, name, "COACH", "sam@club.test"))
      expectJson(await club().admin.get(`/users/${id}`), 200, userDto(id, name, "COACH", "sam@club.test"))
      expect((await login(club(), name, password)).status).toBe(200)
    })

    it("links a user without a named record to a new record of its role, named after the user", async () => {
      const [coach, athlete, admin] = [unique("NewCoach"), unique("NewAthlete"), unique("NewAdmin")]
      await createUser(club(), { name: coach, role: "COACH" })
      await createUser(club(), { name: athlete, role: "ATHLETE" })
      await createUser(club(), { name: admin, role: "ADMIN" })
      const namesAt = async (path: string) =>
        ((await club().admin.get(path)).body as Array<{ name: string }>).map((record) => record.name)
      expect(await namesAt("/all")).toContain(coach)
      expect((await allAthletes(club())).map((a) => a.name)).toContain(athlete)
      expect(await namesAt("/admins/all")).toContain(admin)
    })

    it("links the user to the record named by athleteId: that athlete may then update it", async () => {
      const record = await createAthlete(club(), { name: "Linked" })
      const user = await createUser(club(), { role: "ATHLETE", athleteId: record.id })
      // The answer names the link, as /auth/me and GET /users/{id} do.
      expect(user).toMatchObject({ athleteId: record.id, coachId: null, adminId: null })
      expect((await club().admin.get(`/users/${user.id}`)).body).toMatchObject({ athleteId: record.id })
      const token = await tokenOf(club(), user.name, user.password)
      const reply = await club().withToken(token).put(`/athletes/${record.id}`, {
        name: "Linked",
        niveau: "self-edited"
      })
      expectJson(reply, 200, { ...record, niveau: "self-edited", categorie: null })
    })

    it("answers 400 problem+json naming the field for an invalid body (short password, unknown role, bad e-mail, missing name)", async () => {
      const cases = [
        [{ name: unique("u"), role: "COACH", password: "short" }, /^password: /],
        [{ name: unique("u"), role: "COACHES", password: "long-enough" }, /^role: /],
        [{ name: unique("u"), role: "OWNER", password: "long-enough" }, /^role: /],
        [{ name: unique("u"), role: "COACH", password: "long-enough", email: "not-an-address" }, /^email: /],
        [{ role: "COACH", password: "long-enough" }, /^name: /]
      ] as const
      const before = (await club().admin.get("/users/all")).body
      for (const [body, detail] of cases) expectProblem(await club().admin.post("/users/create", body), 400, { detail })
      expectJson(await club().admin.get("/users/all"), 200, before)
    })

    it("answers 400 problem+json naming the field for a record of another kind (coachId for an ATHLETE user)", async () => {
      const coach = await createCoach(club())
      for (const coachId of [coach.id, club().coachId]) {
        expectProblem(
          await club().admin.post("/users/create", {
            name: unique("u"),
            role: "ATHLETE",
            password: "long-enough",
            coachId
          }),
          400,
          { detail: /^coachId: / }
        )
      }
    })

    it("answers 409 problem+json when the name is taken", async () => {
      for (const name of [(await createUser(club(), {})).name, "coach"]) {
        expectProblem(
          await club().admin.post("/users/create", { name, role: "ATHLETE", password: "long-enough" }),
          409,
          { detail: new RegExp(name, "u") }
        )
      }
    })

    it("answers 409 problem+json when the named record is already linked to another user", async () => {
      expectProblem(
        await club().admin.post("/users/create", {
          name: unique("u"),
          role: "ATHLETE",
          password: "long-enough",
          athleteId: club().athleteId
        }),
        409,
        { detail: new RegExp(`${club().athleteId}`, "u") }
      )
    })
  })

  describe("GET /users/all (Admin)", () => {
    it("answers 200 with an array of UserDTO", async () => {
      const user = await createUser(club(), { email: "listed@club.test" })
      const { password: _, ...dto } = user
      expectJson(
        await club().admin.get("/users/all"),
        200,
        expect.arrayContaining([dto, club().user.ADMIN, club().user.COACH, club().user.ATHLETE])
      )
      expect(club().user.ADMIN).toEqual(userDto(club().user.ADMIN.id, firstAdmin.name, "ADMIN"))
      expect(club().user.ATHLETE).toEqual(userDto(club().user.ATHLETE.id, "athlete", "ATHLETE"))
    })
  })

  describe("GET /users/{id} (Admin, or that user)", () => {
    it("answers 200 with the UserDTO to an admin and to the user themselves", async () => {
      expectJson(await club().admin.get(`/users/${club().user.COACH.id}`), 200, club().user.COACH)
      expectJson(await club().coach.get(`/users/${club().user.COACH.id}`), 200, club().user.COACH)
      expectJson(await club().athlete.get(`/users/${club().user.ATHLETE.id}`), 200, club().user.ATHLETE)
    })

    it("answers 404 problem+json when the user does not exist", async () => {
      expectProblem(await club().admin.get(`/users/${missingId}`), 404, { detail: /^User not found/ })
    })
  })

  describe("PUT /users/update/{id} (Admin)", () => {
    it("answers 200 with the UserDTO, replacing each field given (name, email, password); the old password's token is refused", async () => {
      const user = await createUser(club(), { email: "old@club.test" })
      const token = await tokenOf(club(), user.name, user.password)
      const [name, password] = [unique("Renamed"), unique("new-password")]
      club().passwords.add(password)
      expectJson(
        await club().admin.put(`/users/update/${user.id}`, { name, email: "new@club.test", password }),
        200,
        userDto(user.id, name, "COACH", "new@club.test")
      )
      expectUnauthenticated(await club().withToken(token).get("/auth/me"))
      expect((await login(club(), name, password)).status).toBe(200)
      expectJson(
        await club().admin.put(`/users/update/${user.id}`, { email: null }),
        200,
        userDto(user.id, name, "COACH")
      )
    })

    it("changes the role, linking the user to a new record of the new kind", async () => {
      const user = await createUser(club(), { role: "COACH" })
      const asAthlete = userDto(user.id, user.name, "ATHLETE")
      expectJson(await club().admin.put(`/users/update/${user.id}`, { role: "ATHLETE" }), 200, asAthlete)
      const token = await tokenOf(club(), user.name, user.password)
      expectJson(await club().withToken(token).get("/auth/me"), 200, meOf(asAthlete))
      expect((await allAthletes(club())).map((a) => a.name)).toContain(user.name)
    })

    it("answers 400 problem+json naming the field for an invalid value", async () => {
      const user = await createUser(club(), {})
      const cases = [[{ email: "nope" }, /^email: /], [{ password: "short" }, /^password: /], [
        { role: "OWNER" },
        /^role: /
      ]] as const
      for (const [body, detail] of cases) {
        expectProblem(await club().admin.put(`/users/update/${user.id}`, body), 400, { detail })
      }
      expectJson(await club().admin.get(`/users/${user.id}`), 200, userDto(user.id, user.name, "COACH"))
    })

    it("answers 404 problem+json when the user does not exist", async () => {
      expectProblem(await club().admin.put(`/users/update/${missingId}`, { email: "x@club.test" }), 404, {
        detail: /^User not found/
      })
    })

    it("answers 409 problem+json when the new name is taken", async () => {
      const [first, second] = [await createUser(club(), {}), await createUser(club(), {})]
      expectProblem(await club().admin.put(`/users/update/${second.id}`, { name: first.name }), 409, {
        detail: new RegExp(first.name, "u")
      })
      expectJson(await club().admin.get(`/users/${second.id}`), 200, userDto(second.id, second.name, "COACH"))
    })
  })

  describe("DELETE /users/delete/{id} (Admin)", () => {
    it("answers 204 with an empty body; the user is gone and can no longer log in", async () => {
      const user = await createUser(club(), {})
      expectEmpty(await club().admin.delete(`/users/delete/${user.id}`), 204)
      expectProblem(await club().admin.get(`/users/${user.id}`), 404)
      expectProblem(await login(club(), user.name, user.password), 401)
      expectProblem(await club().admin.delete(`/users/delete/${user.id}`), 404)
    })

    it("answers 404 problem+json when the user does not exist", async () => {
      expectProblem(await club().admin.delete(`/users/delete/${missingId}`), 404, { detail: /^User not found/ })
    })
  })

  describe("POST /admins/create (Admin)", () => {
    it("answers 201 with the AdminDTO", async () => {
      const name = unique("Root")
      const reply = await club().admin.post("/admins/create", { name })
      expect(reply.status).toBe(201)
      const id = (reply.body as { id: number }).id
      expectJson(reply, 201, { id, name })
      expectJson(await club().admin.get(`/admins/${id}`), 200, { id, name })
    })

    it("copies a supplied id that no admin has, and answers 409 problem+json for one in use", async () => {
      const supplied = idAhead((await club().admin.get("/admins/all")).body as Array<{ id: number }>)
      expectJson(await club().admin.post("/admins/create", { id: supplied, name: "Supplied" }), 201, {
        id: supplied,
        name: "Supplied"
      })
      await expectGeneratedIdsAvoid(
        supplied,
        async () => (await club().admin.post("/admins/create", { name: "Generated" })).body as { id: number }
      )
      expectProblem(await club().admin.post("/admins/create", { id: supplied, name: "Again" }), 409, {
        detail: `Admin id ${supplied} is already in use`
      })
      expectJson(await club().admin.get(`/admins/${supplied}`), 200, { id: supplied, name: "Supplied" })
    })

    it("answers 400 problem+json naming the field for an invalid body", async () => {
      expectProblem(await club().admin.post("/admins/create", { name: "x".repeat(201) }), 400, { detail: /^name: / })
      expectProblem(await club().admin.post("/admins/create", { name: 7 }), 400, { detail: /^name: / })
    })
  })

  describe("GET /admins/all (Admin)", () => {
    it("answers 200 with an array of AdminDTO, the first admin's record among them", async () => {
      const reply = await club().admin.get("/admins/all")
      expectJson(reply, 200, expect.arrayContaining([{ id: expect.any(Number), name: firstAdmin.name }]))
      for (const admin of reply.body as Array<Record<string, unknown>>) {
        expect(Object.keys(admin).sort()).toEqual(["id", "name"])
      }
    })
  })

  describe("GET /admins/{id} (Admin)", () => {
    it("answers 200 with the AdminDTO", async () => {
      const admin = (await club().admin.post("/admins/create", { name: "Readable" })).body as { id: number }
      expectJson(await club().admin.get(`/admins/${admin.id}`), 200, { id: admin.id, name: "Readable" })
    })

    it("answers 404 problem+json 'Admin not found'", async () => {
      expectProblem(await club().admin.get(`/admins/${missingId}`), 404, { detail: "Admin not found" })
    })
  })

  describe("PUT /admins/update/{id} (Admin)", () => {
    it("answers 200 with the AdminDTO, the name replaced (kept when absent)", async () => {
      const admin = (await club().admin.post("/admins/create", { name: "Before" })).body as { id: number }
      const after = { id: admin.id, name: "After" }
      expectJson(await club().admin.put(`/admins/update/${admin.id}`, { name: "After" }), 200, after)
      expectJson(await club().admin.put(`/admins/update/${admin.id}`, {}), 200, after)
    })

    it("answers 404 problem+json 'Admin not found'", async () => {
      expectProblem(await club().admin.put(`/admins/update/${missingId}`, { name: "Nobody" }), 404, {
        detail: "Admin not found"
      })
    })
  })

  describe("DELETE /admins/delete/{id} (Admin)", () => {
    it("answers 204 with an empty body, and the admin is gone", async () => {
      const admin = (await club().admin.post("/admins/create", { name: "Leaving" })).body as { id: number }
      expectEmpty(await club().admin.delete(`/admins/delete/${admin.id}`), 204)
      expectProblem(await club().admin.get(`/admins/${admin.id}`), 404, { detail: "Admin not found" })
    })

    it("answers 404 problem+json 'Admin not found'", async () => {
      expectProblem(await club().admin.delete(`/admins/delete/${missingId}`), 404, { detail: "Admin not found" })
    })
  })

  describe("POST /auth/login and GET /auth/me", () => {
    it("POST /auth/login answers 200 {token, tokenType: 'Bearer', expiresIn: 3600, user}", async () => {
      const user = await createUser(club(), { email: "me@club.test", role: "ATHLETE" })
      expectJson(await login(club(), user.name, user.password), 200, {
        // A JWT on the server (checked there); the in-memory signer's tokens are opaque.
        token: expect.any(String),
        tokenType: "Bearer",
        expiresIn: 3600,
        user: userDto(user.id, user.name, "ATHLETE", "me@club.test")
      })
    })

    it("GET /auth/me answers 200 with the caller's UserDTO, for every role", async () => {
      for (const role of ["ADMIN", "COACH", "ATHLETE"] as const) {
        expectJson(await club().as(role).get("/auth/me"), 200, meOf(club().user[role]))
      }
    })

    it("GET /auth/me answers the rules of the caller's role: each operation it may call and how far it reaches", async () => {
      const rulesOf = async (role: "ADMIN" | "COACH" | "ATHLETE") =>
        ((await club().as(role).get("/auth/me")).body as { rules: Record<string, string> }).rules
      const [admin, coach, athlete] = [await rulesOf("ADMIN"), await rulesOf("COACH"), await rulesOf("ATHLETE")]
      expect(admin).toMatchObject({
        "webhook.manage": "any",
        "user.create": "any",
        "plannedSession.update": "handOver"
      })
      expect(admin["attendance.mark"]).toBeUndefined()
      expect(coach).toMatchObject({
        "session.update": "any",
        "plannedSession.update": "coached",
        "attendance.mark": "coached",
        "user.read": "own"
      })
      expect(coach["webhook.manage"]).toBeUndefined()
      expect(athlete).toMatchObject({ "athlete.update": "own", "attendance.reply": "own", "session.read": "any" })
      expect(athlete["session.update"]).toBeUndefined()
    })
  })

  it("never answers a password or a password hash (every answer of this club checked)", () => {
    expectNoSecretInAnyReply(club())
  })
}
