import {
  create,
  createFileRegistry,
  type DescMessage,
  type JsonWriteOptions,
  type MessageInitShape,
  toJsonString
} from "@bufbuild/protobuf"
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  TimestampSchema
} from "@bufbuild/protobuf/wkt"
import { ListTasksResponseSchema, TaskResponseSchema } from "@club/contract/todo"
import { createMethodSerializationLookup } from "@connectrpc/connect/protocol"
import { describe, expect, it } from "vitest"
import { makeAnswerWriter } from "../src/answerWriter.ts"
import { HealthCheckResponseSchema } from "../src/gen/grpc/health/v1/health_pb.ts"
import {
  ErrorResponseSchema,
  FileDescriptorResponseSchema,
  ListServiceResponseSchema,
  ServerReflectionResponseSchema
} from "../src/gen/grpc/reflection/v1/reflection_pb.ts"
import { makeJsonWriter, notWritten } from "../src/jsonWriter.ts"

// A message that holds itself, in a list and singly, beside every kind of field the writer takes.
const { Type, Label } = { Type: FieldDescriptorProto_Type, Label: FieldDescriptorProto_Label }
const registry = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: "tree.proto",
    package: "tree",
    syntax: "proto3",
    messageType: [{
      name: "Node",
      field: [
        { name: "name", number: 1, type: Type.STRING, label: Label.OPTIONAL, jsonName: "name" },
        {
          name: "children",
          number: 2,
          type: Type.MESSAGE,
          typeName: ".tree.Node",
          label: Label.REPEATED,
          jsonName: "children"
        },
        {
          name: "parent_node",
          number: 3,
          type: Type.MESSAGE,
          typeName: ".tree.Node",
          label: Label.OPTIONAL,
          jsonName: "parentNode"
        },
        { name: "depth", number: 4, type: Type.INT32, label: Label.OPTIONAL, jsonName: "depth" },
        { name: "leaf", number: 5, type: Type.BOOL, label: Label.OPTIONAL, jsonName: "leaf" },
        { name: "tags", number: 6, type: Type.STRING, label: Label.REPEATED, jsonName: "tags" },
        { name: "weights", number: 7, type: Type.UINT32, label: Label.REPEATED, jsonName: "weights" },
        // Declared out of order: JSON follows the field numbers.
        { name: "constructor", number: 0x1f, type: Type.STRING, label: Label.OPTIONAL, jsonName: "constructor" },
        { name: "id", number: 8, type: Type.SINT32, label: Label.OPTIONAL, jsonName: "id" }
      ]
    }, {
      name: "Counter",
      field: [{ name: "count", number: 1, type: Type.INT64, label: Label.OPTIONAL, jsonName: "count" }]
    }]
  }),
  () => undefined
)
const NodeSchema = registry.getMessage("tree.Node")!
const CounterSchema = registry.getMessage("tree.Counter")!

const optionSets: ReadonlyArray<Partial<JsonWriteOptions>> = [
  {},
  { alwaysEmitImplicit: true },
  { useProtoFieldName: true },
  { alwaysEmitImplicit: true, useProtoFieldName: true }
]

/** What protobuf-es writes for the message `init` creates: the writer must write the same. */
const expectSameAsProtobufEs = (desc: DescMessage, init: object, options: Partial<JsonWriteOptions>) => {
  const write = makeJsonWriter(desc, options)!
  expect(write).toBeDefined()
  const written = write(init)
  expect(written).not.toBe(notWritten)
  expect(JSON.stringify(written)).toBe(toJsonString(desc, create(desc, init as MessageInitShape<DescMessage>), options))
}

const tasks = [
  { id: "6c1f0a52-3c47-4f0e-9a43-1d2f3b4c5d6e", title: "Chalk", description: "for the bars", success: true },
  { id: "", title: "", description: "", success: false },
  { title: "Only a title" },
  {},
  { id: "x", title: "Ünïcödé ✓ 𝄞 \u2028 \"quoted\" \\ \n", description: "\ud800 a lone surrogate", success: true }
]

describe("makeJsonWriter", () => {
  it("writes TodoService's answers as protobuf-es does, from init shapes and from created messages, under every option", () => {
    for (const options of optionSets) {
      for (const task of tasks) {
        expectSameAsProtobufEs(TaskResponseSchema, task, options)
        expectSameAsProtobufEs(TaskResponseSchema, create(TaskResponseSchema, task), options)
      }
      expectSameAsProtobufEs(ListTasksResponseSchema, { tasks }, options)
      expectSameAsProtobufEs(
        ListTasksResponseSchema,
        { tasks: tasks.map((t) => create(TaskResponseSchema, t)) },
        options
      )
      expectSameAsProtobufEs(ListTasksResponseSchema, { tasks: [] }, options)
      expectSameAsProtobufEs(ListTasksResponseSchema, {}, options)
    }
  })

  it("writes messages that hold themselves, lists of scalars, integers and names that differ from their fields'", () => {
    const tree = {
      name: "root",
      depth: 0,
      id: -7,
      tags: ["a", "", "c"],
      weights: [0, 1, 4294967295],
      constructor: "a field named like a property of every object",
      children: [{ name: "leaf", leaf: true, depth: 1, parentNode: { name: "root" } }, {}],
      parentNode: { children: [{ children: [{ name: "deep", weights: [] }] }] }
    }
    for (const options of optionSets) {
      expectSameAsProtobufEs(NodeSchema, tree, options)
      expectSameAsProtobufEs(NodeSchema, {}, options)
      expectSameAsProtobufEs(NodeSchema, { depth: -0, leaf: false, tags: [] }, options)
    }
  })

  it("writes messages of supported fields only, and nothing where extensions may be written", () => {
    for (const desc of [ListServiceResponseSchema, ErrorResponseSchema]) {
      expect(makeJsonWriter(desc, {})).toBeDefined()
    }
    // An enum, a oneof, bytes, a 64-bit integer, a well-known type.
    for (
      const desc of [
        HealthCheckResponseSchema,
        ServerReflectionResponseSchema,
        FileDescriptorResponseSchema,
        CounterSchema,
        TimestampSchema
      ]
    ) {
      expect(makeJsonWriter(desc, {})).toBeUndefined()
    }
    expect(makeJsonWriter(TaskResponseSchema, { registry })).toBeUndefined()
  })

  it("leaves values of the wrong type, and messages of another type, to protobuf-es", () => {
    const write = makeJsonWriter(ListTasksResponseSchema, { alwaysEmitImplicit: true })!
    for (
      const init of [
        { tasks: [{ title: 5 }] },
        { tasks: [{ success: "yes" }] },
        { tasks: [null] },
        { tasks: "not a list" },
        { tasks: [create(ErrorResponseSchema, { errorMessage: "another type" })] },
        null
      ]
    ) {
      expect(write(init)).toBe(notWritten)
    }
    const writeNode = makeJsonWriter(NodeSchema, {})!
    for (const init of [{ tags: "abc" }, { weights: [1, "2"] }, { depth: 1n }, { parentNode: { leaf: 1 } }]) {
      expect(writeNode(init)).toBe(notWritten)
    }
  })
})

describe("makeAnswerWriter", () => {
  const method = { input: TaskResponseSchema, output: ListTasksResponseSchema } as const
  const limits = { readMaxBytes: 1024, writeMaxBytes: 1024 }
  const jsonOptions = { alwaysEmitImplicit: true }
  const lookup = createMethodSerializationLookup(method as never, {}, jsonOptions, limits)
  const writeAnswer = makeAnswerWriter(method as never, lookup, { ...limits, jsonOptions })
  const protobufEs = (binary: boolean, output: object) =>
    lookup.getO(binary).serialize(create(ListTasksResponseSchema, output as never))
  const outcome = (write: () => Uint8Array) => {
    try {
      return new TextDecoder().decode(write())
    } catch (error) {
      return `${error}`
    }
  }

  it("answers as connect's serialization does: JSON, binary, values it leaves to protobuf-es, and the size limit", () => {
    const outputs = [
      { tasks },
      { tasks: [{ title: 5 }] },
      { tasks: Array.from({ length: 20 }, (_, i) => ({ id: String(i), title: "x".repeat(40) })) }
    ]
    for (const output of outputs) {
      for (const binary of [false, true]) {
        expect(outcome(() => writeAnswer(binary, output))).toBe(outcome(() => protobufEs(binary, output)))
      }
    }
    expect(outcome(() => writeAnswer(false, outputs[2]!))).toMatch(/larger than configured writeMaxBytes 1024/)
    expect(outcome(() => writeAnswer(false, outputs[1]!))).toMatch(/expected string, got 5/)
  })
})
