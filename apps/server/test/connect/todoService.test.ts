import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import { TodoService } from "@club/contract/todo"
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect"
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type ServerProcess } from "@club/test-support"
import { adminPassword, loginAsAdmin } from "./support/login.ts"

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

const targets = [
  { name: "embedded PostgreSQL", available: true, env: (): Record<string, string> => ({}) },
  {
    name: "PostgreSQL server",
    available: database !== undefined,
    env: (): Record<string, string> => ({
      DATABASE_URL: database!.urlVia(database!.server.host, database!.server.port)
    })
  }
]

const transports: ReadonlyArray<readonly [string, (baseUrl: string, interceptors: Array<Interceptor>) => Transport]> = [
  ["Connect JSON", (baseUrl, interceptors) => createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors })],
  [
    "Connect binary",
    (baseUrl, interceptors) =>
      createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true, interceptors })
  ],
  ["gRPC-Web", (baseUrl, interceptors) => createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors })],
  ["gRPC (HTTP/2 cleartext)", (baseUrl, interceptors) => createGrpcTransport({ baseUrl, interceptors })]
]

const bearer = (token: string): Interceptor => (next) => (request) => {
  request.header.set("authorization", `Bearer ${token}`)
  return next(request)
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(() => "succeeded", (error: unknown) => ConnectError.from(error))

for (const target of targets) {
  describe.skipIf(!target.available)(
    `todo.TodoService on the server's one port (${target.name})`,
    { timeout: 120_000 },
    () => {
      let server: ServerProcess
      let dataDir: string
      let token: string
      const baseUrl = () => `http://127.0.0.1:${server.port}`
      /** The server on the file's data directory: a second start finds what the first stored. */
      const startTodoServer = () =>
        startServer({
          DATA_DIR: dataDir,
          ADMIN_NAME: "admin",
          ADMIN_PASSWORD: adminPassword,
          JWT_SECRET: "todo-wire-test-secret-long-enough-0123456789",
          LOG_LEVEL: "warn",
          ...target.env()
        })

      beforeAll(async () => {
        dataDir = await mkdtemp(join(tmpdir(), "club-todo-"))
        server = await startTodoServer()
        token = await loginAsAdmin(server.port)
      })
      afterAll(async () => {
        await server?.stop()
        await rm(dataDir, { recursive: true, force: true })
      })

      for (const [transportName, makeTransport] of transports) {
        describe(transportName, () => {
          const client = () => createClient(TodoService, makeTransport(baseUrl(), [bearer(token)]))

          it("CreateTask answers the stored task with success: true; ListTasks lists it; DeleteTask deletes it", async () => {
            const created = await client().createTask({
              title: `Pack bags (${transportName})`,
              description: "before the match"
            })
            expect(created).toMatchObject({
              title: `Pack bags (${transportName})`,
              description: "before the match",
              success: true
            })
            expect(created.id).toMatch(/^[0-9a-f-]{36}$/u)

            const listed = await client().listTasks({})
            expect(listed.tasks.map((task) => task.id)).toContain(created.id)
            expect(listed.tasks.every((task) => task.success)).toBe(true)

            const deleted = await client().deleteTask({ id: created.id })
            expect(deleted).toMatchObject({ id: created.id, title: created.title, success: true })
            expect((await client().listTasks({})).tasks.map((task) => task.id)).not.toContain(created.id)
          })

          it("DeleteTask of an id that matches no task answers success: false, not an error", async () => {
            const answer = await client().deleteTask({ id: "00000000-0000-4000-8000-000000000000" })
            expect(answer).toMatchObject({ id: "00000000-0000-4000-8000-000000000000", success: false })
          })

          it("a blank title, a 201-character title or a 10,001-character description is invalid_argument naming the field", async () => {
            const blank = await codeOf(client().createTask({ title: "   ", description: "" }))
            expect(blank).toMatchObject({ code: Code.InvalidArgument })
            expect((blank as ConnectError).rawMessage).toContain("title")
            const longTitle = await codeOf(client().createTask({ title: "x".repeat(201), description: "" }))
            expect(longTitle).toMatchObject({ code: Code.InvalidArgument })
            expect((longTitle as ConnectError).rawMessage).toContain("title")
            const longDescription = await codeOf(client().createTask({ title: "t", description: "d".repeat(10_001) }))
            expect(longDescription).toMatchObject({ code: Code.InvalidArgument })
            expect((longDescription as ConnectError).rawMessage).toContain("description")
          })

          it("without a token every RPC is unauthenticated", async () => {
            const anonymous = createClient(TodoService, makeTransport(baseUrl(), []))
            expect(await codeOf(anonymous.listTasks({}))).toMatchObject({ code: Code.Unauthenticated })
            expect(await codeOf(anonymous.createTask({ title: "t", description: "" }))).toMatchObject({
              code: Code.Unauthenticated
            })
            expect(await codeOf(anonymous.deleteTask({ id: "x" }))).toMatchObject({ code: Code.Unauthenticated })
            const forged = createClient(TodoService, makeTransport(baseUrl(), [bearer(`${token.slice(0, -3)}abc`)]))
            expect(await codeOf(forged.listTasks({}))).toMatchObject({ code: Code.Unauthenticated })
          })
        })
      }

      it("Connect JSON answers carry every field, defaults included", async () => {
        const response = await fetch(`${baseUrl()}/todo.TodoService/DeleteTask`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ id: "no-such-task" })
        })
        expect(response.status).toBe(200)
        expect(await response.json()).toEqual({ id: "no-such-task", title: "", description: "", success: false })
      })

      it("tasks created over RPC are still there after a server restart", async () => {
        const created = await createClient(
          TodoService,
          createConnectTransport({ baseUrl: baseUrl(), httpVersion: "1.1", interceptors: [bearer(token)] })
        )
          .createTask({ title: "Survives a restart", description: "" })
        await server.stop()
        server = await startTodoServer()
        const after = await createClient(
          TodoService,
          createConnectTransport({ baseUrl: baseUrl(), httpVersion: "1.1", interceptors: [bearer(token)] })
        )
          .listTasks({})
        expect(after.tasks.find((task) => task.id === created.id)).toMatchObject({
          title: "Survives a restart",
          success: true
        })
      })
    }
  )
}
