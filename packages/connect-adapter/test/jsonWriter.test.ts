import { create, type DescMessage, type MessageInitShape, toJsonString } from "@bufbuild/protobuf"
import { TimestampSchema } from "@bufbuild/protobuf/wkt"
import { describe, expect, it } from "vitest"
import { ListTasksResponseSchema, TaskResponseSchema } from "@club/contract/todo"
import { compileJsonWriter } from "../src/jsonWriter.ts"

const protobufEs = <Desc extends DescMessage>(schema: Desc, init: MessageInitShape<Desc>) =>
  toJsonString(schema, create(schema, init), { alwaysEmitImplicit: true })

const awkward = [
  "",
  "plain",
  "quote \" and backslash \\",
  "line\nbreak\ttab",
  "é ü ß 漢字 🏋️",
  "\u0000\u001f\u007f",
  "lone \ud800 surrogate",
  "</script>"
]

describe("compileJsonWriter", () => {
  it("writes TaskResponse as protobuf-es does, every field emitted", () => {
    const write = compileJsonWriter(TaskResponseSchema)!
    for (const text of awkward) {
      for (
        const init of [
          { id: text, title: text, description: text, success: true },
          { id: text, success: false },
          {}
        ]
      ) {
        expect(write(init)).toBe(protobufEs(TaskResponseSchema, init))
      }
    }
  })

  it("writes ListTasksResponse as protobuf-es does, empty and full", () => {
    const write = compileJsonWriter(ListTasksResponseSchema)!
    const tasks = awkward.map((text, i) => ({
      id: `id-${i}`,
      title: text,
      description: text.repeat(3),
      success: i % 2 === 0
    }))
    for (const init of [{}, { tasks: [] }, { tasks }, { tasks: [{}] }]) {
      expect(write(init)).toBe(protobufEs(ListTasksResponseSchema, init))
    }
  })

  it("declines a message it cannot write exactly (64-bit integers), leaving it to protobuf-es", () => {
    expect(compileJsonWriter(TimestampSchema)).toBeUndefined()
  })
})
