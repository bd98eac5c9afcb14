import { TodoService } from "@club/contract/todo"
import { createClient, type Interceptor } from "@connectrpc/connect"
import { createConnectTransport } from "@connectrpc/connect-node"
import { expect, it } from "vitest"
import { onEveryDatabase, unique } from "./support/club.ts"

interface Entry {
  readonly id: number
  readonly actor: { readonly userId: number; readonly role: string } | null
  readonly requestId: string | null
  readonly operation: string
  readonly recordType: string
  readonly records: Record<string, unknown>
  readonly changes: Record<string, unknown>
}

interface Page {
  readonly items: ReadonlyArray<Entry>
  readonly nextCursor: string | null
}

/** Issue 43 item 4 over the wire, on both databases: each write's entries, read back by an admin through `GET /audit`. */
await onEveryDatabase("The audit trail (issue 43)", (club) => {
  const trail = async (query: string): Promise<Page> => {
    const reply = await club().admin.get(`/audit?${query}`)
    expect(reply.status, reply.text).toBe(200)
    return reply.body as Page
  }
  const ofRequest = async (requestId: string) =>
    (await trail("limit=500")).items.filter((entry) => entry.requestId === requestId)

  it("an athlete's creation, change and deletion each leave one entry naming the admin and the request", async () => {
    const created = await club().admin.post("/athletes/create", { name: "Audited", categorie: "U12", niveau: "B" })
    expect(created.status).toBe(201)
    const id = (created.body as { id: number }).id
    const updated = await club().admin.put(`/athletes/${id}`, { name: "Audited Again", categorie: "U12", niveau: "A" })
    expect(updated.status).toBe(200)
    const deleted = await club().admin.delete(`/athletes/${id}`)
    expect(deleted.status).toBe(204)

    const history = (await trail(`recordType=athletes&recordId=${id}`)).items
    expect(history.map((entry) => entry.operation)).toEqual(["delete", "update", "insert"])
    const [gone, change, insert] = history
    for (const [entry, reply] of [[insert, created], [change, updated], [gone, deleted]] as const) {
      expect(entry!.actor).toEqual({ userId: club().user.ADMIN.id, role: "ADMIN" })
      expect(entry!.requestId).toBe(reply.headers.get("x-request-id"))
    }
    expect(insert!.changes).toMatchObject({ name: "Audited", categorie: "U12", niveau: "B" })
    expect(change!.changes).toEqual({ name: "Audited Again", niveau: "A" })
    expect(gone!.changes).toEqual({})
  })

  it("a user created with a password leaves no password and no hash in any entry", async () => {
    const password = "audit-secret-password-1"
    const reply = await club().admin.post("/users/create", {
      name: unique("audited-user"),
      password,
      role: "ADMIN",
      email: "audited@club.test"
    })
    expect(reply.status, reply.text).toBe(201)
    const entries = await ofRequest(reply.headers.get("x-request-id")!)
    const user = entries.find((entry) => entry.recordType === "users")!
    expect(user.operation).toBe("insert")
    expect(user.changes["password_hash"]).toBe("(withheld)")
    const text = JSON.stringify((await trail("limit=500")).items)
    expect(text).not.toContain(password)
    expect(text).not.toMatch(/\$(argon2|scrypt|2[aby])\$/u)
    for (const sent of club().passwords) expect(text).not.toContain(sent)
  })

  it("Connect writes name their caller and their request too, task creations asked together included", async () => {
    const stamp = Date.now()
    const todoAs = (role: "ADMIN" | "COACH") => {
      const headers: Interceptor = (next) => (request) => {
        request.header.set("authorization", `Bearer ${club().token[role]}`)
        request.header.set("x-request-id", `audit-connect-${role}-${stamp}`)
        return next(request)
      }
      return createClient(
        TodoService,
        createConnectTransport({ baseUrl: club().url, httpVersion: "1.1", interceptors: [headers] })
      )
    }
    // Sent at once: the server may gather them into its per-turn writes, one statement per caller.
    const [adminTask, coachTask] = await Promise.all([
      todoAs("ADMIN").createTask({ title: "Audited task", description: "" }),
      todoAs("COACH").createTask({ title: "Audited task of a coach", description: "" })
    ])
    await todoAs("ADMIN").deleteTask({ id: adminTask!.id })
    for (
      const [role, task, operations] of [["ADMIN", adminTask!, ["insert", "delete"]], ["COACH", coachTask!, [
        "insert"
      ]]] as const
    ) {
      const entries = await ofRequest(`audit-connect-${role}-${stamp}`)
      const ofTask = entries.filter((entry) => entry.recordType === "tasks")
      expect(ofTask.map((entry) => entry.operation).sort()).toEqual([...operations].sort())
      expect(ofTask.every((entry) => entry.records["id"] === task.id)).toBe(true)
      for (const entry of ofTask) expect(entry.actor).toEqual({ userId: club().user[role].id, role })
    }
  })

  it("a refused write leaves no entry: 403, 400 and 409", async () => {
    const refused = [
      await club().athlete.post("/groups", { name: unique("Refused"), parentId: null, coachIds: [] }),
      await club().admin.post("/groups", { name: 12, parentId: null, coachIds: [] }),
      await club().admin.post("/users/create", { name: "coach", password: "another-password-1", role: "ADMIN" })
    ]
    expect(refused.map((reply) => reply.status)).toEqual([403, 400, 409])
    for (const reply of refused) expect(await ofRequest(reply.headers.get("x-request-id")!)).toEqual([])
  })

  it("pages newest first by sealed cursors, and filters by user, operation and time", async () => {
    const first = await trail("limit=2")
    expect(first.items).toHaveLength(2)
    expect(first.items[0]!.id).toBeGreaterThan(first.items[1]!.id)
    const second = await trail(`limit=2&cursor=${first.nextCursor}`)
    expect(second.items[0]!.id).toBeLessThan(first.items[1]!.id)
    const byAdmin = await trail(`userId=${club().user.ADMIN.id}&operation=insert&limit=500`)
    expect(byAdmin.items.length).toBeGreaterThan(0)
    expect(byAdmin.items.every((e) => e.actor?.userId === club().user.ADMIN.id && e.operation === "insert")).toBe(true)
    expect((await trail("from=2100-01-01T00:00:00Z")).items).toEqual([])
    expect((await trail("to=2000-01-01T00:00:00Z")).items).toEqual([])
    expect((await club().admin.get("/audit?cursor=forged")).status).toBe(400)
    expect((await club().admin.get("/audit?operation=truncate")).status).toBe(400)
  })

  it("only an admin reads the trail", async () => {
    expect((await club().coach.get("/audit")).status).toBe(403)
    expect((await club().athlete.get("/audit")).status).toBe(403)
    expect((await club().anonymous.get("/audit")).status).toBe(401)
  })
})
