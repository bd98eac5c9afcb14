import { temporaryTestDatabase } from "@club/postgres-adapter/testing"
import * as grpc from "@grpc/grpc-js"
import * as protoLoader from "@grpc/proto-loader"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ServerProcess } from "@club/test-support"
import { startWithAdmin } from "./support/login.ts"

const contract = fileURLToPath(new URL("../../../../packages/contract/", import.meta.url))
const protoFile = `${contract}proto/todo.proto`
const buf = `${contract}node_modules/.bin/buf`

const database = await temporaryTestDatabase()
afterAll(() => database?.drop())

const targets = [
  { name: "embedded PostgreSQL", available: true, env: (): Record<string, string> => ({ DATA_DIR: "memory://" }) },
  {
    name: "PostgreSQL server",
    available: database !== undefined,
    env: (): Record<string, string> => ({
      DATA_DIR: "memory://",
      DATABASE_URL: database!.urlVia(database!.server.host, database!.server.port)
    })
  }
]

interface TaskResponse {
  readonly id: string
  readonly title: string
  readonly description: string
  readonly success: boolean
}

/** A stock gRPC client, as any language would have: only the .proto file, no generated code of ours. */
const grpcClient = (port: number) => {
  const definition = protoLoader.loadSync(protoFile, { keepCase: true, defaults: true })
  const todo = grpc.loadPackageDefinition(definition)["todo"] as grpc.GrpcObject
  const Client = todo["TodoService"] as grpc.ServiceClientConstructor
  return new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure())
}

const unary = <A>(client: grpc.Client, method: string, request: object, metadata: grpc.Metadata) =>
  new Promise<A>((resolve, reject) => {
    const call = (client as unknown as Record<string, Function>)[method]!.bind(client)
    call(
      request,
      metadata,
      (error: grpc.ServiceError | null, response: A) => (error ? reject(error) : resolve(response))
    )
  })

for (const target of targets) {
  describe.skipIf(!target.available)(`stock clients call TodoService (${target.name})`, { timeout: 120_000 }, () => {
    let server: ServerProcess
    let token: string

    beforeAll(async () => {
      ;({ server, token } = await startWithAdmin(target.env()))
    })
    afterAll(() => server?.stop())

    it("@grpc/grpc-js, loading todo.proto, calls all three RPCs with a token", async () => {
      const client = grpcClient(server.port)
      const metadata = new grpc.Metadata()
      metadata.set("authorization", `Bearer ${token}`)
      try {
        const created = await unary<TaskResponse>(
          client,
          "CreateTask",
          { title: "From grpc-js", description: "stock" },
          metadata
        )
        expect(created).toMatchObject({ title: "From grpc-js", description: "stock", success: true })
        const listed = await unary<{ tasks: Array<TaskResponse> }>(client, "ListTasks", {}, metadata)
        expect(listed.tasks.map((task) => task.id)).toContain(created.id)
        const deleted = await unary<TaskResponse>(client, "DeleteTask", { id: created.id }, metadata)
        expect(deleted).toMatchObject({ id: created.id, success: true })
        const again = await unary<TaskResponse>(client, "DeleteTask", { id: created.id }, metadata)
        expect(again).toMatchObject({ id: created.id, success: false })
      } finally {
        client.close()
      }
    })

    it("@grpc/grpc-js without a token gets UNAUTHENTICATED", async () => {
      const client = grpcClient(server.port)
      try {
        const error = await unary(client, "ListTasks", {}, new grpc.Metadata()).catch((e: grpc.ServiceError) => e)
        expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED })
      } finally {
        client.close()
      }
    })

    it("@grpc/grpc-js with a blank title gets INVALID_ARGUMENT naming the field", async () => {
      const client = grpcClient(server.port)
      const metadata = new grpc.Metadata()
      metadata.set("authorization", `Bearer ${token}`)
      try {
        const error = await unary(client, "CreateTask", { title: "", description: "" }, metadata)
          .catch((e: grpc.ServiceError) => e)
        expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT })
        expect((error as grpc.ServiceError).details).toContain("title")
      } finally {
        client.close()
      }
    })

    for (const protocol of ["connect", "grpcweb", "grpc"] as const) {
      it(`buf curl calls CreateTask (--protocol ${protocol})`, async () => {
        const { stdout } = await promisify(execFile)(buf, [
          "curl",
          "--schema",
          protoFile,
          "--protocol",
          protocol,
          ...(protocol === "grpc" ? ["--http2-prior-knowledge"] : []),
          "-H",
          `authorization: Bearer ${token}`,
          "-d",
          JSON.stringify({ title: `From buf curl (${protocol})` }),
          `http://127.0.0.1:${server.port}/todo.TodoService/CreateTask`
        ])
        expect(JSON.parse(stdout)).toMatchObject({ title: `From buf curl (${protocol})`, success: true })
      })
    }
  })
}
