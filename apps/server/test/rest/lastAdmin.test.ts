import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase, unique, type UserDto } from "./support/club.ts"
import { meOf } from "@club/test-support/rest"
import { expectEmpty, expectJson, expectProblem } from "@club/test-support/expectations"
import type { Caller, Reply } from "./support/http.ts"

/** CONTRACT.md: "The last ADMIN user cannot be demoted or deleted: 409 problem+json." */
const lastAdminDetail = (id: number) => `User ${id} is the last ADMIN user; another ADMIN user must exist first`

/** A new ADMIN user, logged in. */
const createAdmin = async (club: Club, by: Caller = club.admin): Promise<{ user: UserDto; caller: Caller }> => {
  const [name, password] = [unique("admin"), unique("admin-password")]
  club.passwords.add(password)
  const reply = await by.post("/users/create", { name, role: "ADMIN", password })
  if (reply.status !== 201) throw new Error(`Creating an admin failed: ${reply.status} ${reply.text}`)
  const login = await club.anonymous.post("/auth/login", { name, password })
  if (login.status !== 200) throw new Error(`Login of ${name} failed: ${login.status} ${login.text}`)
  return { user: reply.body as UserDto, caller: club.withToken((login.body as { token: string }).token) }
}

const adminsAmong = (reply: Reply) => (reply.body as Array<UserDto>).filter((user) => user.role === "ADMIN")

await onEveryDatabase("The last ADMIN user", (club) => {
  describe("alone", () => {
    it("PUT /users/update/{id} demoting it answers 409 problem+json naming it, and it stays ADMIN", async () => {
      const { id } = club().user.ADMIN
      for (const role of ["ATHLETE", "COACH", "coach"]) {
        expectProblem(await club().admin.put(`/users/update/${id}`, { role }), 409, { detail: lastAdminDetail(id) })
      }
      expectJson(await club().admin.get("/auth/me"), 200, meOf(club().user.ADMIN))
    })

    it("DELETE /users/delete/{id} answers 409 problem+json naming it, and it is still there", async () => {
      const { id } = club().user.ADMIN
      expectProblem(await club().admin.delete(`/users/delete/${id}`), 409, { detail: lastAdminDetail(id) })
      expectJson(await club().admin.get(`/users/${id}`), 200, club().user.ADMIN)
    })

    it("other changes to it are still made (a name, an e-mail address, the same role)", async () => {
      const { id, name } = club().user.ADMIN
      expectJson(await club().admin.put(`/users/update/${id}`, { email: "head@club.test", role: "ADMIN" }), 200, {
        ...club().user.ADMIN,
        email: "head@club.test"
      })
      expectJson(await club().admin.put(`/users/update/${id}`, { email: null, name }), 200, club().user.ADMIN)
    })
  })

  describe("with two ADMIN users", () => {
    it("one can be demoted, and then the other cannot", async () => {
      const second = await createAdmin(club())
      expectJson(await club().admin.put(`/users/update/${second.user.id}`, { role: "COACH" }), 200, {
        ...second.user,
        role: "COACH",
        // A new role links the user to a new record of that kind.
        coachId: expect.any(Number),
        adminId: null
      })
      const { id } = club().user.ADMIN
      expectProblem(await club().admin.put(`/users/update/${id}`, { role: "COACH" }), 409, {
        detail: lastAdminDetail(id)
      })
      expect(adminsAmong(await club().admin.get("/users/all"))).toEqual([club().user.ADMIN])
    })

    it("one can be deleted, and then the other cannot", async () => {
      const second = await createAdmin(club())
      expectEmpty(await club().admin.delete(`/users/delete/${second.user.id}`), 204)
      const { id } = club().user.ADMIN
      expectProblem(await club().admin.delete(`/users/delete/${id}`), 409, { detail: lastAdminDetail(id) })
      expect(adminsAmong(await club().admin.get("/users/all"))).toEqual([club().user.ADMIN])
    })

    it("one can demote itself while the other remains", async () => {
      const second = await createAdmin(club())
      expectJson(await second.caller.put(`/users/update/${second.user.id}`, { role: "ATHLETE" }), 200, {
        ...second.user,
        role: "ATHLETE",
        athleteId: expect.any(Number),
        adminId: null
      })
      expect(adminsAmong(await club().admin.get("/users/all"))).toEqual([club().user.ADMIN])
    })
  })

  // Last: the head admin may lose its role here. Each round, the admin left creates another, and
  // the two then demote (or delete) each other at the same moment.
  it("two ADMIN users demoting or deleting each other at once: exactly one succeeds, one ADMIN user remains", async () => {
    let survivor: { user: UserDto; caller: Caller } = { user: club().user.ADMIN, caller: club().admin }
    for (let round = 0; round < 6; round++) {
      const other = await createAdmin(club(), survivor.caller)
      const pair = [survivor, other] as const
      const remove = (by: Caller, target: UserDto) =>
        round % 2 === 0
          ? by.put(`/users/update/${target.id}`, { role: "COACH" })
          : by.delete(`/users/delete/${target.id}`)
      const replies = await Promise.all([remove(pair[0].caller, pair[1].user), remove(pair[1].caller, pair[0].user)])
      const succeeded = replies.flatMap((reply, index) => reply.status < 300 ? [index] : [])
      expect(succeeded, replies.map((reply) => `${reply.status} ${reply.text}`).join(" | ")).toHaveLength(1)
      const winner = pair[succeeded[0]!]!
      // The loser was refused as the last admin (409), or, already demoted or deleted, as a caller
      // who is no longer an admin (403) or whose token no longer counts (401).
      const loser = replies[1 - succeeded[0]!]!
      expect([401, 403, 409]).toContain(loser.status)
      if (loser.status === 409) expectProblem(loser, 409, { detail: lastAdminDetail(winner.user.id) })
      expect(adminsAmong(await winner.caller.get("/users/all"))).toEqual([winner.user])
      survivor = winner
    }
  })
})
