import { TaskService } from "@club/core"
import { Code, type Client, createClient } from "@connectrpc/connect"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TodoService } from "@club/contract/todo"
import { MemoryTaskRepository } from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo, type TodoServers } from "./fixtures/serveTodo.ts"
import { bearer, TestAuthService } from "./fixtures/TestAuthService.ts"
import { transports } from "./fixtures/transports.ts"

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const athlete = bearer("athlete-token")
const coach = bearer("coach-token")

let servers: TodoServers
beforeAll(async () => {
  servers = await serveTodo(
    Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService)
  )
})
afterAll(() => servers.close())

describe.each(transports)("TodoService over %s", (_name, transportFor) => {
  let client: Client<typeof TodoService>
  beforeAll(() => {
    client = createClient(TodoService, transportFor(servers))
  })

  describe("CreateTask", () => {
    it("answers the stored task with success true", async () => {
      const task = await client.createTask({ title: "Buy chalk", description: "for the bars" }, athlete)
      expect(task).toMatchObject({ title: "Buy chalk", description: "for the bars", success: true })
      expect(task.id).toMatch(uuid)
    })

    it("accepts a title of 200 characters and a description of 10,000", async () => {
      const task = await client.createTask({ title: "t".repeat(200), description: "d".repeat(10_000) }, athlete)
      expect(task.success).toBe(true)
    })

    it("refuses a blank title with invalid_argument naming title", async () => {
      await expect(client.createTask({ title: "   ", description: "" }, athlete)).rejects.toMatchObject({
        code: Code.InvalidArgument,
        rawMessage: "title: must be a non-blank string"
      })
    })

    it("refuses a missing title (proto3 default '') the same way", async () => {
      await expect(client.createTask({}, athlete)).rejects.toMatchObject({
        code: Code.InvalidArgument,
        rawMessage: "title: must be a non-blank string"
      })
    })

    it("refuses a title of 201 characters", async () => {
      await expect(client.createTask({ title: "t".repeat(201) }, athlete)).rejects.toMatchObject({
        code: Code.InvalidArgument,
        rawMessage: "title: at most 200 characters"
      })
    })

    it("refuses a description of 10,001 characters", async () => {
      await expect(client.createTask({ title: "ok", description: "d".repeat(10_001) }, athlete)).rejects
        .toMatchObject({ code: Code.InvalidArgument, rawMessage: "description: at most 10000 characters" })
    })

    it("refuses a NUL character (which PostgreSQL text cannot store) in the title or the description", async () => {
      await expect(client.createTask({ title: "a\u0000b" }, athlete)).rejects.toMatchObject({
        code: Code.InvalidArgument,
        rawMessage: "title: must be a string without NUL characters"
      })
      await expect(client.createTask({ title: "ok", description: "\u0000" }, athlete)).rejects.toMatchObject({
        code: Code.InvalidArgument,
        rawMessage: "description: must be a string without NUL characters"
      })
    })
  })

  describe("ListTasks", () => {
    it("answers every task, oldest first, each with success true", async () => {
      const first = await client.createTask({ title: "first" }, athlete)
      const second = await client.createTask({ title: "second" }, coach)
      const { tasks } = await client.listTasks({}, athlete)
      const ids = tasks.map((task) => task.id)
      expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0)
      expect(ids.indexOf(second.id)).toBeGreaterThan(ids.indexOf(first.id))
      expect(tasks.every((task) => task.success)).toBe(true)
      expect(tasks.find((task) => task.id === second.id)).toMatchObject({ title: "second", description: "" })
    })
  })

  describe("DeleteTask", () => {
    it("answers the deleted task with success true, and it is gone", async () => {
      const created = await client.createTask({ title: "to delete", description: "soon" }, athlete)
      const deleted = await client.deleteTask({ id: created.id }, coach)
      expect(deleted).toMatchObject({ id: created.id, title: "to delete", description: "soon", success: true })
      const { tasks } = await client.listTasks({}, athlete)
      expect(tasks.map((task) => task.id)).not.toContain(created.id)
    })

    it("answers success false, not an error, for an id that matches nothing (a retry is harmless)", async () => {
      const created = await client.createTask({ title: "once" }, athlete)
      await client.deleteTask({ id: created.id }, athlete)
      expect(await client.deleteTask({ id: created.id }, athlete)).toMatchObject({
        id: created.id,
        title: "",
        description: "",
        success: false
      })
    })

    it("answers success false for an id that is not a UUID", async () => {
      expect(await client.deleteTask({ id: "42" }, athlete)).toMatchObject({ id: "42", success: false })
    })
  })

  describe("authentication", () => {
    it.each([
      ["CreateTask", () => client.createTask({ title: "x" })],
      ["ListTasks", () => client.listTasks({})],
      ["DeleteTask", () => client.deleteTask({ id: "42" })]
    ])("refuses %s without a token: unauthenticated", async (_rpc, call) => {
      await expect(call()).rejects.toMatchObject({ code: Code.Unauthenticated })
    })

    it("refuses an unknown token, and a header of another scheme", async () => {
      await expect(client.listTasks({}, bearer("forged"))).rejects.toMatchObject({ code: Code.Unauthenticated })
      await expect(client.listTasks({}, { headers: { authorization: "Basic YTpi" } })).rejects.toMatchObject({
        code: Code.Unauthenticated
      })
    })
  })
})
