import { TaskService } from "@club/core"
import { create, createFileRegistry, fromBinary, type DescService } from "@bufbuild/protobuf"
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt"
import { Code, createClient, type Transport } from "@connectrpc/connect"
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as v1 from "../src/gen/grpc/reflection/v1/reflection_pb.ts"
import * as v1alpha from "../src/gen/grpc/reflection/v1alpha/reflection_pb.ts"
import { MemoryTaskRepository } from "./fixtures/MemoryTaskRepository.ts"
import { serveTodo, type TodoServers } from "./fixtures/serveTodo.ts"
import { TestAuthService } from "./fixtures/TestAuthService.ts"

type Query = v1.ServerReflectionRequest["messageRequest"]
type Answer = v1.ServerReflectionResponse["messageResponse"]

let servers: TodoServers
beforeAll(async () => {
  servers = await serveTodo(
    Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService)
  )
})
afterAll(() => servers.close())

/** Sends the queries on one bidi stream, each after the answer to the one before, and collects the answers. */
const ask = async (
  service: DescService,
  transport: Transport,
  queries: ReadonlyArray<Query>
): Promise<Array<v1.ServerReflectionResponse>> => {
  const client = createClient(service as typeof v1.ServerReflection, transport)
  const answers: Array<v1.ServerReflectionResponse> = []
  async function* requests() {
    for (const messageRequest of queries) {
      yield { host: "localhost", messageRequest }
      // The next request goes once the answer to this one is in (like grpcurl).
      while (answers.length < queries.indexOf(messageRequest) + 1) {
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
  }
  for await (const answer of client.serverReflectionInfo(requests())) answers.push(answer)
  return answers
}

const filesIn = (answer: Answer) => {
  if (answer.case !== "fileDescriptorResponse") {
    throw new Error(`not files: ${answer.case} ${JSON.stringify(answer.value)}`)
  }
  return answer.value.fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes))
}

const transports: ReadonlyArray<readonly [string, () => Transport]> = [
  ["gRPC over h2c", () => createGrpcTransport({ baseUrl: servers.http2Url })],
  [
    "Connect over HTTP/2",
    () => createConnectTransport({ baseUrl: servers.http2Url, httpVersion: "2", useBinaryFormat: true })
  ]
]

for (const [version, service] of [["v1", v1.ServerReflection], ["v1alpha", v1alpha.ServerReflection]] as const) {
  for (const [name, transport] of transports) {
    describe(`gRPC server reflection ${version} (${name})`, () => {
      it("lists every service served: TodoService, health, and both reflection versions", async () => {
        const [answer] = await ask(service, transport(), [{ case: "listServices", value: "" }])
        expect(answer?.validHost).toBe("localhost")
        expect(answer?.originalRequest?.messageRequest).toEqual({ case: "listServices", value: "" })
        expect(answer?.messageResponse.case).toBe("listServicesResponse")
        const names = answer?.messageResponse.case === "listServicesResponse"
          ? answer.messageResponse.value.service.map((s) => s.name)
          : []
        expect(names.sort()).toEqual([
          "grpc.health.v1.Health",
          "grpc.reflection.v1.ServerReflection",
          "grpc.reflection.v1alpha.ServerReflection",
          "todo.TodoService"
        ])
      })

      it("answers the file declaring a symbol, for services, methods, messages, fields, enums and enum values", async () => {
        const symbols = {
          "todo.TodoService": "todo.proto",
          "todo.TodoService.CreateTask": "todo.proto",
          "todo.CreateTaskRequest": "todo.proto",
          "todo.TaskResponse.success": "todo.proto",
          "grpc.health.v1.Health.Watch": "grpc/health/v1/health.proto",
          "grpc.health.v1.HealthCheckResponse.ServingStatus": "grpc/health/v1/health.proto",
          "grpc.health.v1.HealthCheckResponse.SERVING": "grpc/health/v1/health.proto",
          "grpc.reflection.v1.ServerReflectionRequest.message_request": "grpc/reflection/v1/reflection.proto",
          "grpc.reflection.v1alpha.ServerReflection": "grpc/reflection/v1alpha/reflection.proto"
        }
        const answers = await ask(
          service,
          transport(),
          Object.keys(symbols).map((value) => ({ case: "fileContainingSymbol", value }))
        )
        expect(answers.map((answer) => filesIn(answer.messageResponse)[0]?.name)).toEqual(Object.values(symbols))
      })

      it("answers a file by its name, and the descriptors it sends are enough to call TodoService", async () => {
        const [answer] = await ask(service, transport(), [{ case: "fileByFilename", value: "todo.proto" }])
        const files = filesIn(answer!.messageResponse)
        expect(files.map((file) => file.name)).toEqual(["todo.proto"])
        const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: files }))
        expect(registry.getService("todo.TodoService")?.methods.map((method) => method.name)).toEqual([
          "CreateTask",
          "ListTasks",
          "DeleteTask"
        ])
        expect(registry.getMessage("todo.TaskResponse")?.fields.map((field) => [field.name, field.number])).toEqual([
          ["id", 1],
          ["title", 2],
          ["description", 3],
          ["success", 4]
        ])
      })

      it("answers NOT_FOUND in the stream for an unknown symbol, file, extension or type, and goes on", async () => {
        const answers = await ask(service, transport(), [
          { case: "fileContainingSymbol", value: "todo.Nope" },
          { case: "fileByFilename", value: "nope.proto" },
          {
            case: "fileContainingExtension",
            value: {
              $typeName: "grpc.reflection.v1.ExtensionRequest",
              containingType: "todo.TaskResponse",
              extensionNumber: 100
            }
          },
          { case: "allExtensionNumbersOfType", value: "todo.Nope" },
          { case: "allExtensionNumbersOfType", value: "todo.TaskResponse" },
          { case: "fileContainingSymbol", value: "todo.TaskResponse" }
        ])
        expect(answers.slice(0, 4).map((answer) => answer.messageResponse)).toEqual([
          {
            case: "errorResponse",
            value: expect.objectContaining({ errorCode: Code.NotFound, errorMessage: "unknown symbol todo.Nope" })
          },
          {
            case: "errorResponse",
            value: expect.objectContaining({ errorCode: Code.NotFound, errorMessage: "unknown file nope.proto" })
          },
          { case: "errorResponse", value: expect.objectContaining({ errorCode: Code.NotFound }) },
          {
            case: "errorResponse",
            value: expect.objectContaining({ errorCode: Code.NotFound, errorMessage: "unknown type todo.Nope" })
          }
        ])
        expect(answers[4]?.messageResponse).toMatchObject({
          case: "allExtensionNumbersResponse",
          value: { baseTypeName: "todo.TaskResponse", extensionNumber: [] }
        })
        expect(filesIn(answers[5]!.messageResponse).map((file) => file.name)).toEqual(["todo.proto"])
      })
    })
  }
}

it("reflection needs no credentials, TodoService on the same handler still does", async () => {
  const transport = createGrpcTransport({ baseUrl: servers.http2Url })
  const answers = await ask(v1.ServerReflection, transport, [{ case: "listServices", value: "" }])
  expect(answers).toHaveLength(1)
  const { TodoService } = await import("@club/contract/todo")
  await expect(createClient(TodoService, transport).listTasks({})).rejects.toMatchObject({ code: Code.Unauthenticated })
})

it("a reflection stream the client keeps open ends unavailable when the server drains, after answering what it was asked", async () => {
  const draining = new AbortController()
  const own = await serveTodo(
    Layer.mergeAll(TaskService.layer.pipe(Layer.provide(MemoryTaskRepository)), TestAuthService),
    { draining: draining.signal }
  )
  try {
    const client = createClient(v1.ServerReflection, createGrpcTransport({ baseUrl: own.http2Url }))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    async function* requests() {
      yield { host: "", messageRequest: { case: "listServices" as const, value: "" } }
      // The client keeps its side open.
      await held
    }
    const answers = client.serverReflectionInfo(requests())[Symbol.asyncIterator]()
    expect((await answers.next()).value?.messageResponse.case).toBe("listServicesResponse")
    draining.abort()
    await expect(answers.next()).rejects.toMatchObject({
      code: Code.Unavailable,
      rawMessage: "The server is shutting down"
    })
    release()
  } finally {
    await own.close()
  }
})
