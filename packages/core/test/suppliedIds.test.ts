import { describe, expect, it } from "@effect/vitest"
import { Exit, Schema } from "effect"
import {
  AdminCreate,
  AthleteCreate,
  AthleteId,
  CoachCreate,
  Limits,
  SessionCreate,
  SessionId,
  SuppliedAdminId,
  SuppliedAthleteId,
  SuppliedCoachId,
  SuppliedSessionId
} from "../src/index.ts"
import { newSession } from "./repositoryContract/fixtures.ts"

const session = (id: number) => newSession({ id: SessionId.make(id) })

describe("supplied ids (CONTRACT.md \"Identifiers\")", () => {
  it("leave more than 2^52 ids to generate, even at their bound", () => {
    expect(Limits.maxSuppliedId).toBe(2 ** 31 - 1)
    expect(Limits.maxGeneratedId).toBe(Number.MAX_SAFE_INTEGER)
    expect(Limits.maxGeneratedId - Limits.maxSuppliedId).toBeGreaterThan(2 ** 52)
  })

  for (
    const [kind, schema] of [
      ["athlete", SuppliedAthleteId],
      ["coach", SuppliedCoachId],
      ["admin", SuppliedAdminId],
      ["session", SuppliedSessionId]
    ] as const
  ) {
    it(`a supplied ${kind} id is an id of 1 to 2^31-1`, () => {
      const is = Schema.is(schema)
      for (const id of [1, 7, Limits.maxSuppliedId]) expect(is(id), String(id)).toBe(true)
      for (const id of [0, -1, 1.5, Limits.maxSuppliedId + 1, Limits.maxGeneratedId, 2 ** 53, Number.NaN]) {
        expect(is(id), String(id)).toBe(false)
      }
    })
  }

  it("the create inputs refuse a larger id, naming the field and the bound; ids in general stay safe integers", () => {
    const refusal = (schema: Schema.Top, input: unknown) => {
      const exit = Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>)(input)
      return Exit.isFailure(exit) ? String(exit.cause) : "accepted"
    }
    // A session's fields as a body sends them, and an athlete's two more: every create input finds its own.
    const empty = { ...Schema.encodeSync(SessionCreate)(newSession()), categorie: null, niveau: null }
    for (const schema of [AthleteCreate, CoachCreate, AdminCreate, SessionCreate]) {
      expect(refusal(schema, { ...empty, id: Limits.maxSuppliedId }), schema.identifier).toBe("accepted")
      for (const id of [Limits.maxSuppliedId + 1, Limits.maxGeneratedId]) {
        expect(refusal(schema, { ...empty, id }), schema.identifier).toMatch(
          /Expected an id of at most 2147483647 \(larger ids are only generated\)[^]*\["id"\]/u
        )
      }
    }
    expect(() => session(Limits.maxSuppliedId + 1)).toThrow()
    expect(session(Limits.maxSuppliedId).id).toBe(Limits.maxSuppliedId)
    expect(Schema.is(AthleteId)(Limits.maxGeneratedId)).toBe(true)
  })
})
