import { create, createFileRegistry, type DescMessage, type MessageInitShape, toJsonString } from "@bufbuild/protobuf"
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ListTasksResponseSchema, TaskResponseSchema } from "@club/contract/todo"
import { mkdirSync, writeFileSync } from "node:fs"
import { derivedJsonWriter, generatedJsonWriter, makeJsonWriter } from "../src/shared/jsonWriter.ts"
import { jsonWriterSource } from "../src/shared/jsonWriterSource.ts"

/**
 * The derived JSON writer writes byte for byte what protobuf-es's reflective
 * `toJsonString(desc, create(desc, init), options)` writes, on random messages: the contract's
 * answers, and a message of every field kind the writer supports, under each JSON option it reads.
 */

// FieldDescriptorProto's types and labels (descriptor.proto).
const type = { int32: 5, bool: 8, string: 9, message: 11, uint32: 13, sint32: 17, int64: 3, enum: 14 } as const
const optional = 1
const repeated = 3

const file = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: "sample.proto",
    package: "sample",
    syntax: "proto3",
    messageType: [
      {
        name: "Inner",
        field: [
          { name: "name", number: 1, type: type.string, label: optional, jsonName: "name" },
          { name: "counts", number: 2, type: type.int32, label: repeated, jsonName: "counts" }
        ]
      },
      {
        name: "Sample",
        // Declared out of number order: JSON follows the numbers.
        field: [
          { name: "tail_flag", number: 9, type: type.bool, label: optional, jsonName: "tailFlag" },
          { name: "text", number: 1, type: type.string, label: optional, jsonName: "text" },
          { name: "flag", number: 2, type: type.bool, label: optional, jsonName: "flag" },
          { name: "small", number: 3, type: type.int32, label: optional, jsonName: "small" },
          { name: "unsigned", number: 4, type: type.uint32, label: optional, jsonName: "unsigned" },
          { name: "zigzag", number: 5, type: type.sint32, label: optional, jsonName: "zigzag" },
          { name: "words", number: 6, type: type.string, label: repeated, jsonName: "words" },
          {
            name: "inner",
            number: 7,
            type: type.message,
            typeName: ".sample.Inner",
            label: optional,
            jsonName: "inner"
          },
          {
            name: "inner_list",
            number: 8,
            type: type.message,
            typeName: ".sample.Inner",
            label: repeated,
            jsonName: "innerList"
          }
        ]
      },
      {
        // A JSON name that is an array index: toJson's object lists it before the others.
        name: "IndexKey",
        field: [
          { name: "text", number: 1, type: type.string, label: optional, jsonName: "text" },
          { name: "second", number: 2, type: type.string, label: optional, jsonName: "7" }
        ]
      },
      {
        // Two fields of one JSON name: one key of toJson's object.
        name: "SharedKey",
        field: [
          { name: "first", number: 1, type: type.string, label: optional, jsonName: "same" },
          { name: "second", number: 2, type: type.string, label: optional, jsonName: "same" }
        ]
      },
      {
        name: "Wide",
        field: [
          { name: "text", number: 1, type: type.string, label: optional, jsonName: "text" },
          { name: "big", number: 2, type: type.int64, label: optional, jsonName: "big" }
        ]
      }
    ]
  }),
  () => undefined
)
const Inner = file.getMessage("sample.Inner")!
const Sample = file.getMessage("sample.Sample")!
const Wide = file.getMessage("sample.Wide")!
const IndexKey = file.getMessage("sample.IndexKey")!
const SharedKey = file.getMessage("sample.SharedKey")!

// Any UTF-16 code unit (lone surrogates, controls, quotes, backslashes), and whole code points.
const text = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", " ", "\"\\/\u2028\u2029\u0000", "x".repeat(200_000), "é✓😀".repeat(20_000))
)
const int32 = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -0, 1, -1))
const uint32 = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 2 ** 32 - 1))

/** An init object (fields left out at random) or, at random, the message `create` makes of it. */
const initOrMessage = <T extends object>(desc: DescMessage, init: fc.Arbitrary<T>) =>
  fc.tuple(init, fc.boolean()).map(([value, asMessage]) =>
    asMessage ? create(desc, value as MessageInitShape<DescMessage>) : value
  )

const task = initOrMessage(
  TaskResponseSchema,
  fc.record({ id: fc.oneof(fc.uuid(), text), title: text, description: text, success: fc.boolean() }, {
    requiredKeys: []
  })
)
const taskList = initOrMessage(
  ListTasksResponseSchema,
  fc.record({ tasks: fc.array(task, { maxLength: 40 }) }, { requiredKeys: [] })
)
const inner = initOrMessage(Inner, fc.record({ name: text, counts: fc.array(int32) }, { requiredKeys: [] }))
const sample = initOrMessage(
  Sample,
  fc.record({
    text,
    flag: fc.boolean(),
    small: int32,
    unsigned: uint32,
    zigzag: int32,
    words: fc.array(text, { maxLength: 5 }),
    inner,
    innerList: fc.array(inner, { maxLength: 5 }),
    tailFlag: fc.boolean()
  }, { requiredKeys: [] })
)
const wide = fc.record({ text, big: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) }, { requiredKeys: [] })

const optionSets = [
  {},
  { alwaysEmitImplicit: true },
  { useProtoFieldName: true },
  { alwaysEmitImplicit: true, useProtoFieldName: true }
]

const reflective = (desc: DescMessage, message: object, options: object) =>
  toJsonString(desc, create(desc, message as MessageInitShape<DescMessage>), options)

/** A writer of `ListTasksResponse` and of `TaskResponse` writes what protobuf-es writes, on random answers. */
const expectContractAnswers = (
  writerOf: (desc: DescMessage, options: object) => ((message: object) => string) | undefined,
  options: object
) => {
  const writeList = writerOf(ListTasksResponseSchema, options)!
  const writeTask = writerOf(TaskResponseSchema, options)!
  fc.assert(
    fc.property(taskList, task, (list, one) => {
      expect(writeList(list)).toBe(reflective(ListTasksResponseSchema, list, options))
      expect(writeTask(one)).toBe(reflective(TaskResponseSchema, one, options))
    }),
    { numRuns: 150 }
  )
}

describe("the derived JSON writer writes what protobuf-es's toJsonString writes", () => {
  for (const options of optionSets) {
    const label = JSON.stringify(options)
    it(`ListTasksResponse and TaskResponse, ${label}`, () => {
      // The derived writers themselves: a needless fall back to protobuf-es fails the test too.
      expectContractAnswers(derivedJsonWriter, options)
    })

    // The writers generated at build time follow every option but useProtoFieldName.
    if (!("useProtoFieldName" in options)) {
      it(`the writers generated at build time for the contract's answers, ${label}`, () => {
        expectContractAnswers(generatedJsonWriter, options)
      })
    }

    it(`every supported field kind, ${label}`, () => {
      const write = derivedJsonWriter(Sample, options)!
      fc.assert(
        fc.property(sample, (message) => {
          expect(write(message)).toBe(reflective(Sample, message, options))
        }),
        { numRuns: 300 }
      )
    })
  }

  it("uses the generated writers for the contract's file only, under the options they follow", () => {
    expect(generatedJsonWriter(ListTasksResponseSchema, { alwaysEmitImplicit: true })).toBeDefined()
    expect(generatedJsonWriter(ListTasksResponseSchema, { useProtoFieldName: true })).toBeUndefined()
    expect(generatedJsonWriter(ListTasksResponseSchema, { prettySpaces: 2 })).toBeUndefined()
    expect(generatedJsonWriter(Sample)).toBeUndefined()
  })

  it("generates writers of every supported kind that write what toJsonString writes, and none for the others", async () => {
    // The generator run on this test's own file, its module imported as the build imports the contract's.
    const folder = new URL("./.tmp/", import.meta.url)
    mkdirSync(folder, { recursive: true })
    const module = new URL("sampleJson.ts", folder)
    writeFileSync(module, jsonWriterSource(Sample.file))
    const { jsonWriters } = await import(module.href) as {
      jsonWriters: ReadonlyMap<string, (message: object, always: boolean) => string>
    }
    expect([...jsonWriters.keys()].sort()).toEqual(["sample.IndexKey", "sample.Inner", "sample.Sample"])
    const indexKey = fc.record({ text, second: text }, { requiredKeys: [] })
    for (const always of [false, true]) {
      fc.assert(
        fc.property(sample, indexKey, (message, keyed) => {
          expect(jsonWriters.get("sample.Sample")!(message, always)).toBe(
            reflective(Sample, message, { alwaysEmitImplicit: always })
          )
          expect(jsonWriters.get("sample.IndexKey")!(keyed, always)).toBe(
            reflective(IndexKey, keyed, { alwaysEmitImplicit: always })
          )
        }),
        { numRuns: 300 }
      )
    }
  })

  it("derives a writer for the contract's answers and the supported kinds, not for the others", () => {
    expect(derivedJsonWriter(ListTasksResponseSchema, { alwaysEmitImplicit: true })).toBeDefined()
    expect(derivedJsonWriter(TaskResponseSchema)).toBeDefined()
    expect(derivedJsonWriter(Sample)).toBeDefined()
    expect(derivedJsonWriter(Wide)).toBeUndefined()
    expect(derivedJsonWriter(Sample, { prettySpaces: 2 })).toBeUndefined()
  })

  it("leaves a kind it does not write (int64) to protobuf-es", () => {
    const write = makeJsonWriter(Wide, { alwaysEmitImplicit: true })
    fc.assert(
      fc.property(
        wide,
        (message) => {
          expect(write(message)).toBe(reflective(Wide, message, { alwaysEmitImplicit: true }))
        }
      )
    )
  })

  it("writes JSON keys an object reorders (an array index) or merges (one json_name twice) as toJson's object does", () => {
    const message = { text: "a", second: "b" }
    expect(makeJsonWriter(IndexKey)(message)).toBe(reflective(IndexKey, message, {}))
    expect(makeJsonWriter(IndexKey)(message)).toBe(`{"7":"b","text":"a"}`)
    const shared = { first: "a", second: "b" }
    expect(makeJsonWriter(SharedKey)(shared)).toBe(reflective(SharedKey, shared, {}))
    expect(makeJsonWriter(SharedKey)({ first: "a" })).toBe(reflective(SharedKey, { first: "a" }, {}))
  })

  it("leaves a value of an unexpected type to protobuf-es, which refuses it", () => {
    const write = makeJsonWriter(TaskResponseSchema)
    expect(() => write({ title: 7 })).toThrow(/cannot encode field todo.TaskResponse.title to JSON/)
  })
})
