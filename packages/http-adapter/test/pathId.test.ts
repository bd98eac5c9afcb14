import { AthleteId, Limits, SessionId } from "@club/core"
import { describe, expect, it } from "@effect/vitest"
import { Exit, Schema } from "effect"
import { OpenApi } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { pathId } from "@club/contract/rest"

const SessionPathId = Schema.Struct({ id: pathId(SessionId) })
const decode = Schema.decodeUnknownExit(SessionPathId)

const canonical = ["1", "7", "10", "2147483648", String(Limits.maxGeneratedId)]
const otherSpellings = [
  "07",
  "+7",
  "-7",
  "7e0",
  "1e3",
  "7;x",
  " 7",
  "7 ",
  "0x7",
  "7.0",
  "7.",
  "0",
  "00",
  "",
  "٧",
  "Infinity",
  "NaN",
  String(Limits.maxGeneratedId + 1),
  "9007199254740993",
  "99999999999999999999"
]

describe("the path-id codec (every :id of the contract)", () => {
  it("decodes an id written in canonical decimal to that number, and encodes it back", () => {
    for (const text of canonical) {
      expect(decode({ id: text }), text).toEqual(Exit.succeed({ id: Number(text) }))
      expect(Schema.encodeSync(SessionPathId)({ id: SessionId.make(Number(text)) })).toEqual({ id: text })
    }
  })

  it("refuses every other spelling, naming what it expects and what it got", () => {
    for (const text of otherSpellings) {
      const exit = decode({ id: text })
      expect(Exit.isFailure(exit), JSON.stringify(text)).toBe(true)
      expect(String(exit), JSON.stringify(text)).toContain(`Expected an id: a positive integer in decimal digits`)
    }
  })

  it("keeps the id's own brand", () => {
    const athlete = Schema.decodeUnknownSync(Schema.Struct({ id: pathId(AthleteId) }))({ id: "12" })
    expect(Schema.is(AthleteId)(athlete.id)).toBe(true)
  })

  it("is described to OpenAPI as an integer from 1 to 2^53-1, on every endpoint", () => {
    const document = OpenApi.fromApi(ClubApi) as unknown as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }> }>>
    }
    const schemas = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) =>
        (operation.parameters ?? []).filter((parameter) => parameter.in === "path" && parameter.name === "id")
          .map((parameter) => parameter.schema)
      )
    )
    const operationsWithId = Object.entries(document.paths).flatMap(([path, operations]) =>
      path.includes("{id}") ? Object.keys(operations) : []
    )
    expect(schemas.length).toBe(operationsWithId.length)
    for (const schema of schemas) {
      expect(schema).toEqual({ type: "integer", minimum: 1, maximum: Limits.maxGeneratedId })
    }
  })
})
