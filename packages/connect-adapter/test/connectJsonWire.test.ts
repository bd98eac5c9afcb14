import { TaskService } from "@club/core"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryTaskRepository } from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo, type TodoServers } from "./fixtures/serveTodo.ts"
import { TestAuthService } from "./fixtures/TestAuthService.ts"

let servers: TodoServers
beforeAll(async () => {
  servers = await serveTodo(
    Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService)
  )
})
afterAll(() => servers.close())

/** A Connect JSON call as curl or a browser makes it: a POST with a JSON body. */
const post = (rpc: string, body: unknown, token: string | null = "athlete-token") =>
  fetch(`${servers.http1Url}/todo.TodoService/${rpc}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === null ? {} : { authorization: `Bearer ${token}` })
    },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

describe("Connect JSON on the wire", () => {
  it("DeleteTask of an unknown id answers every field, \"success\": false included", async () => {
    const response = await post("DeleteTask", { id: "3f0c2b9e-5d4a-4c1e-9f7a-2b8c6d1e0a11" })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toMatch(/"success":\s*false/)
    expect(JSON.parse(text)).toEqual({
      id: "3f0c2b9e-5d4a-4c1e-9f7a-2b8c6d1e0a11",
      title: "",
      description: "",
      success: false
    })
  })

  it("CreateTask answers the stored task", async () => {
    const response = await post("CreateTask", { title: "Wax the rings" })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ title: "Wax the rings", description: "", success: true })
  })

  it("ListTasks with an empty body answers the tasks array", async () => {
    const response = await post("ListTasks", {})
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ tasks: expect.any(Array) })
  })

  it("an invalid title is HTTP 400 invalid_argument naming the field", async () => {
    const response = await post("CreateTask", { title: "" })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ code: "invalid_argument", message: "title: must be a non-blank string" })
  })

  it("no token is HTTP 401 unauthenticated", async () => {
    const response = await post("ListTasks", {}, null)
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: "unauthenticated", message: "A bearer token is required" })
  })

  it("malformed JSON is refused as invalid_argument, not an internal error", async () => {
    const response = await post("CreateTask", "{\"title\":")
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: "invalid_argument" })
  })

  it("a body over 1 MiB is refused before it reaches the use-case", async () => {
    const response = await post("CreateTask", { title: "big", description: "d".repeat(1024 * 1024 + 1) })
    expect(response.ok).toBe(false)
    expect(await response.json()).toMatchObject({ code: "resource_exhausted" })
  })
})
