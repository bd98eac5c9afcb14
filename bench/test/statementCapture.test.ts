import { once } from "node:events"
import { connect, createServer } from "node:net"
import { describe, expect, it } from "vitest"
import { readBind, readParse } from "../src/queries/extendedProtocol.ts"
import { parameterText, sqlLiteral } from "../src/queries/parameterLiteral.ts"
import { startStatementCounter } from "../src/queries/StatementCounter.ts"

const cString = (text: string) => Buffer.from(`${text}\0`)
const int16 = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff])
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4)
  buffer.writeInt32BE(value)
  return buffer
}
const int64 = (value: bigint) => {
  const buffer = Buffer.alloc(8)
  buffer.writeBigInt64BE(value)
  return buffer
}

const parseBody = (name: string, text: string, types: ReadonlyArray<number>) =>
  Buffer.concat([cString(name), cString(text), int16(types.length), ...types.map(int32)])

const bindBody = (statement: string, codes: ReadonlyArray<number>, parameters: ReadonlyArray<Buffer | null>) =>
  Buffer.concat([
    cString(""),
    cString(statement),
    int16(codes.length),
    ...codes.map(int16),
    int16(parameters.length),
    ...parameters.flatMap((p) => (p === null ? [int32(-1)] : [int32(p.length), p])),
    int16(1),
    int16(1)
  ])

const message = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type), int32(body.length + 4), body])

/** A binary int8[] of one dimension, as the driver binds a list of ids. */
const int8Array = (values: ReadonlyArray<bigint>) =>
  Buffer.concat([
    int32(1),
    int32(0),
    int32(20),
    int32(values.length),
    int32(1),
    ...values.flatMap((v) => [int32(8), int64(v)])
  ])

describe("Parse and Bind", () => {
  it("reads a statement's declared parameter types", () => {
    expect(readParse(parseBody("s1", "SELECT $1, $2", [23, 0]))).toEqual({
      name: "s1",
      text: "SELECT $1, $2",
      parameterTypes: [23, 0]
    })
  })

  it("reads each parameter's bytes with its format: none given is text, one applies to all, else one each", () => {
    const one = Buffer.from("1")
    expect(readBind(bindBody("s1", [], [one])).parameters).toEqual([{ format: "text", bytes: one }])
    expect(readBind(bindBody("s1", [1], [int32(7), int32(8)])).parameters.map((p) => p?.format)).toEqual([
      "binary",
      "binary"
    ])
    const mixed = readBind(bindBody("s2", [1, 0, 0], [int32(7), Buffer.from("2026-01-01T00:00:00"), null]))
    expect(mixed.statement).toBe("s2")
    expect(mixed.parameters).toEqual([
      { format: "binary", bytes: int32(7) },
      { format: "text", bytes: Buffer.from("2026-01-01T00:00:00") },
      null
    ])
  })
})

describe("parameter text", () => {
  it("takes a text parameter as it is and decodes the binary ones of the types it knows", () => {
    expect(parameterText({ format: "text", bytes: Buffer.from("2026-02-01T00:00:00") }, 0)).toEqual({
      text: "2026-02-01T00:00:00"
    })
    expect(parameterText({ format: "binary", bytes: int32(876) }, 23)).toEqual({ text: "876" })
    expect(parameterText({ format: "binary", bytes: int64(9_007_199_254_740_993n) }, 20)).toEqual({
      text: "9007199254740993"
    })
    expect(parameterText({ format: "binary", bytes: Buffer.from([1]) }, 16)).toEqual({ text: "true" })
    expect(parameterText({ format: "binary", bytes: int8Array([3n, 1n]) }, 1016)).toEqual({ text: `{"3","1"}` })
    // 2026-01-02 08:00:00.5 is 820,656,000.5 s after 2000-01-01.
    expect(parameterText({ format: "binary", bytes: int64(820_656_000_500_000n) }, 1114)).toEqual({
      text: "2026-01-02 08:00:00.500000"
    })
    expect(parameterText(null, 23)).toEqual({ text: null })
  })

  it("reports a binary parameter of another type as unsupported rather than guessing", () => {
    expect(parameterText({ format: "binary", bytes: Buffer.from("{}") }, 114)).toEqual({
      unsupported: "binary parameter of type OID 114"
    })
  })

  it("writes a string literal PostgreSQL casts to the parameter's type", () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'")
    expect(sqlLiteral(null)).toBe("NULL")
  })
})

describe("StatementCounter", () => {
  it("records each execution with its text, how it was sent and the parameters it was bound to", async () => {
    // A stand-in for PostgreSQL that reads everything and answers nothing: the proxy only reads what the client sends.
    const upstream = createServer((socket) => socket.resume())
    upstream.listen(0, "127.0.0.1")
    await once(upstream, "listening")
    const { port } = upstream.address() as { port: number }
    const counter = await startStatementCounter(`postgres://postgres@127.0.0.1:${port}/postgres`)
    try {
      const proxied = new URL(counter.url(`postgres://postgres@127.0.0.1:${port}/postgres`))
      const client = connect(Number(proxied.port), "127.0.0.1")
      await once(client, "connect")
      const startup = Buffer.concat([int32(196_608), cString("user"), cString("postgres"), cString("")])
      const prepared = "SELECT id FROM sessions WHERE id = $1 AND creneau > $2"
      const unprepared = "SELECT id FROM sessions WHERE id = ANY($1)"
      const bytes = Buffer.concat([
        Buffer.concat([int32(startup.length + 4), startup]),
        message("P", parseBody("effect_1", prepared, [23, 0])),
        message("B", bindBody("effect_1", [1, 0], [int32(42), Buffer.from("2026-01-01T00:00:00")])),
        message("E", Buffer.concat([cString(""), int32(0)])),
        // Executed again by name only, as a driver does once the statement is prepared.
        message("B", bindBody("effect_1", [1, 0], [int32(43), Buffer.from("2026-02-01T00:00:00")])),
        message("E", Buffer.concat([cString(""), int32(0)])),
        message("P", parseBody("", unprepared, [1016])),
        message("B", bindBody("", [1], [int8Array([1n, 2n])])),
        message("E", Buffer.concat([cString(""), int32(0)])),
        message("Q", cString("BEGIN"))
      ])
      // In two chunks split inside a message, as TCP may deliver them.
      client.write(bytes.subarray(0, 40))
      client.write(bytes.subarray(40))
      for (let wait = 0; wait < 100 && counter.executions().length < 4; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const executions = counter.executions()
      expect(executions.map((e) => [e.text, e.sent])).toEqual([
        [prepared, "named"],
        [prepared, "named"],
        [unprepared, "unnamed"],
        ["BEGIN", "simple"]
      ])
      expect(executions[1]!.parameterTypes).toEqual([23, 0])
      expect(executions[1]!.parameters.map((p, i) => parameterText(p, executions[1]!.parameterTypes[i]!))).toEqual([
        { text: "43" },
        { text: "2026-02-01T00:00:00" }
      ])
      expect(parameterText(executions[2]!.parameters[0]!, 1016)).toEqual({ text: `{"1","2"}` })
      expect(counter.statements()).toEqual([prepared, prepared, unprepared, "BEGIN"])
      client.destroy()
    } finally {
      await counter.close()
      upstream.close()
    }
  })
})
