import { describe, expect, it } from "vitest"
import { clubForFile } from "../support/club.ts"
import { expectEmpty, expectJson, expectProblem, expectUnauthenticated } from "@club/test-support/expectations"
import { createAthlete, unique } from "../support/records.ts"

const missingId = 987_654_321
const club = clubForFile()

describe("POST /users/create", () => {
  it("answers 201 with the UserDTO {id, name, email, role}, the role stored upper-case; never the password", async () => {
    const name = unique("user")
    const reply = await club().admin.post("/users/create", {
      name,
      email: "u@club.test",
      role: "coach",
      password: "password-123"
    })
    const id = (reply.body as { id: number }).id
    expectJson(reply, 201, { id, name, email: "u@club.test", role: "COACH" })
    expect(reply.text).not.toContain("password-123")
  })

  it("answers 400 problem+json naming the field: a short password, an unknown role, a record of another kind", async () => {
    const base = { name: unique("bad"), role: "ATHLETE", password: "password-123" }
    expectProblem(await club().admin.post("/users/create", { ...base, password: "short" }), 400, /^(.*; )?password: /u)
    expectProblem(await club().admin.post("/users/create", { ...base, role: "OWNER" }), 400, /^(.*; )?role: /u)
    expectProblem(await club().admin.post("/users/create", { ...base, coachId: club().coachId }), 400, /^coachId: /u)
  })

  it("answers 409 problem+json for a name taken, and for a record linked to another user", async () => {
    expectProblem(
      await club().admin.post("/users/create", { name: "coach", role: "COACH", password: "password-123" }),
      409,
      /coach/u
    )
    expectProblem(
      await club().admin.post("/users/create", {
        name: unique("twin"),
        role: "ATHLETE",
        password: "password-123",
        athleteId: club().athleteId
      }),
      409,
      new RegExp(`${club().athleteId}`, "u")
    )
  })
})

describe("GET /users/all and /users/{id}", () => {
  it("answer the UserDTOs to an admin; a user reads itself; an unknown user is 404 problem+json", async () => {
    expectJson(
      await club().admin.get("/users/all"),
      200,
      expect.arrayContaining([
        { id: club().userId.ATHLETE, name: "athlete", email: null, role: "ATHLETE" }
      ])
    )
    expectJson(await club().athlete.get(`/users/${club().userId.ATHLETE}`), 200, {
      id: club().userId.ATHLETE,
      name: "athlete",
      email: null,
      role: "ATHLETE"
    })
    expectProblem(await club().admin.get(`/users/${missingId}`), 404)
  })
})

describe("PUT /users/update/{id} and DELETE /users/delete/{id}", () => {
  it("an update answers 200 with the UserDTO; a password change ends the old token; a delete answers 204 and ends the login", async () => {
    const athlete = await createAthlete(club())
    const name = unique("changing")
    const created = await club().admin.post("/users/create", {
      name,
      role: "ATHLETE",
      password: "password-123",
      athleteId: athlete.id
    })
    const id = (created.body as { id: number }).id
    const login = (password: string) => club().send("POST", "/auth/login", { json: { name, password } })
    const token = ((await login("password-123")).body as { token: string }).token
    expectJson(
      await club().admin.put(`/users/update/${id}`, { email: "new@club.test", password: "password-456" }),
      200,
      {
        id,
        name,
        email: "new@club.test",
        role: "ATHLETE"
      }
    )
    expectUnauthenticated(await club().withToken(token).get("/auth/me"))
    expect((await login("password-456")).status).toBe(200)
    expectEmpty(await club().admin.delete(`/users/delete/${id}`), 204)
    expectProblem(await login("password-456"), 401)
    expectProblem(await club().admin.delete(`/users/delete/${id}`), 404)
  })
})

describe("the admin records", () => {
  it("create, read, update and delete answer the AdminDTO; an unknown one is 404 problem+json 'Admin not found'", async () => {
    const created = await club().admin.post("/admins/create", { name: unique("Ada") })
    const admin = created.body as { id: number; name: string }
    expectJson(created, 201, { id: admin.id, name: admin.name })
    expectJson(await club().admin.get(`/admins/${admin.id}`), 200, admin)
    expectJson(await club().admin.put(`/admins/update/${admin.id}`, { name: "Renamed" }), 200, {
      id: admin.id,
      name: "Renamed"
    })
    expectEmpty(await club().admin.delete(`/admins/delete/${admin.id}`), 204)
    expectProblem(await club().admin.get(`/admins/${admin.id}`), 404, "Admin not found")
  })
})
