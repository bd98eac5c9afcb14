import { TaskService } from "@club/core"
import { Code, createClient, createRouterTransport } from "@connectrpc/connect"
import { createConnectTransport } from "@connectrpc/connect-node"
import { Layer, Logger, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { TodoService } from "@club/contract/todo"
import { makeTodoConnect, makeTodoRoutes } from "../src/index.ts"
import {
  BrokenTaskRepository,
  hangingTaskRepository,
  MemoryTaskRepository,
  UnreachableTaskRepository
} from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo } from "./fixtures/serveTodo.ts"
import { bearer, TestAuthService } from "./fixtures/TestAuthService.ts"

const athlete = bearer("athlete-token")

/** Log lines the application's logger received: proof that defects go through Effect's logger. */
const logged: Array<{ readonly level: string; readonly message: unknown; readonly cause: string }> = []
const CollectingLogger = Logger.layer([
  Logger.make((entry) => {
    logged.push({ level: entry.logLevel, message: entry.message, cause: String(entry.cause) })
  })
])

const runtimeOf = (repository: typeof MemoryTaskRepository) =>
  ManagedRuntime.make(
    Layer.mergeAll(TaskService.layer.pipe(Layer.provide(repository)), TestAuthService, CollectingLogger)
  )

const broken = runtimeOf(BrokenTaskRepository)
const healthy = runtimeOf(MemoryTaskRepository)
const unreachable = runtimeOf(UnreachableTaskRepository)
afterAll(async () => {
  await broken.dispose()
  await healthy.dispose()
  await unreachable.dispose()
})

describe("failures at the edge", () => {
  it("a defect answers internal with a generic message and is logged, not leaked", async () => {
    const { interceptors, routes } = await broken.runPromise(makeTodoConnect)
    const client = createClient(TodoService, createRouterTransport(routes, { router: { interceptors } }))
    const failure = await client.listTasks({}, athlete).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: Code.Internal, rawMessage: "Internal server error" })
    expect(String(failure)).not.toContain("connection to the store lost")
    expect(logged).toContainEqual(
      expect.objectContaining({ level: "Error", cause: expect.stringContaining("connection to the store lost") })
    )
  })

  it("a database that cannot be reached answers unavailable, which clients may retry, with a clear message", async () => {
    const { interceptors, routes } = await unreachable.runPromise(makeTodoConnect)
    const client = createClient(TodoService, createRouterTransport(routes, { router: { interceptors } }))
    for (const call of [() => client.listTasks({}, athlete), () => client.createTask({ title: "t" }, athlete)]) {
      const failure = await call().catch((error: unknown) => error)
      expect(failure).toMatchObject({ code: Code.Unavailable, rawMessage: "The database is unreachable; retry later" })
      expect(String(failure)).not.toContain("ECONNREFUSED")
    }
  })

  it("routes mounted without the auth interceptor refuse every call rather than run anonymously", async () => {
    const { run } = await healthy.runPromise(makeTodoConnect)
    const client = createClient(TodoService, createRouterTransport(makeTodoRoutes(run)))
    await expect(client.listTasks({}, athlete)).rejects.toMatchObject({ code: Code.Unauthenticated })
  })

  it("TodoConnect's routes carry their authentication on the service: mounted alone, they still authenticate", async () => {
    const { routes } = await healthy.runPromise(makeTodoConnect)
    const client = createClient(TodoService, createRouterTransport(routes))
    await expect(client.listTasks({})).rejects.toMatchObject({ code: Code.Unauthenticated })
    await expect(client.listTasks({}, athlete)).resolves.toHaveProperty("tasks")
  })

  it("a call the client gives up on interrupts the use-case on the server", async () => {
    let interrupted!: () => void
    const wasInterrupted = new Promise<void>((resolve) => {
      interrupted = resolve
    })
    const servers = await serveTodo(
      Layer.mergeAll(TaskService.layer.pipe(Layer.provide(hangingTaskRepository(interrupted))), TestAuthService)
    )
    try {
      const client = createClient(
        TodoService,
        createConnectTransport({ baseUrl: servers.http1Url, httpVersion: "1.1" })
      )
      await expect(client.listTasks({}, { ...athlete, timeoutMs: 200 })).rejects.toMatchObject({
        code: Code.DeadlineExceeded
      })
      await wasInterrupted
    } finally {
      await servers.close()
    }
  })
})
