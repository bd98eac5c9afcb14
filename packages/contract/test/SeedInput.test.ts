import { ActivityWrite, AthleteUpdate, CoachUpdate, Duree, SessionCreate, SessionUpdate, UserUpdate } from "@club/core"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { seedFields, toCoreInput } from "../src/rest/shared/SeedInput.ts"

const decodeWire = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.decodeUnknownSync(Schema.Struct(seedFields(fields)) as unknown as Schema.Codec<object, unknown>)

describe("seedFields: core's input fields in the seed's wire form", () => {
  it("lets every nullable field and every list be absent or null", () => {
    const decode = decodeWire(SessionCreate.fields)
    expect(decode({})).toEqual({})
    expect(decode({ name: null, athleteIds: null, coachId: null })).toEqual({
      name: null,
      athleteIds: null,
      coachId: null
    })
  })

  it("keeps core's checks on a value that is given", () => {
    const decode = decodeWire(SessionCreate.fields)
    expect(() => decode({ duree: -1 })).toThrow()
    expect(() => decode({ name: "x".repeat(201) })).toThrow()
    expect(() => decode({ athleteIds: [0] })).toThrow()
  })

  it("keeps a required field required, and an optional key that is not nullable non-nullable", () => {
    expect(() => decodeWire(ActivityWrite.fields)({ name: "Sprints" })).toThrow()
    expect(decodeWire(ActivityWrite.fields)({ sessionId: 7 })).toEqual({ sessionId: 7 })
    expect(() => decodeWire(UserUpdate.fields)({ name: null })).toThrow()
  })

  it("declares the same JSON Schema for a field as core's own schema does", () => {
    const wire = Schema.toJsonSchemaDocument(Schema.Struct(seedFields({ duree: Schema.NullOr(Duree) })))
    const direct = Schema.toJsonSchemaDocument(Schema.Struct({ duree: Schema.optional(Schema.NullOr(Duree)) }))
    expect(wire).toEqual(direct)
  })
})

describe("toCoreInput: a decoded body as core's input class", () => {
  it("turns what was not given into core's nothing: null, [] or no key", () => {
    expect(toCoreInput(SessionCreate, { name: "Track" })).toEqual(
      new SessionCreate({
        id: null,
        name: "Track",
        isRecurrent: null,
        creneau: null,
        duree: null,
        groupe: null,
        coachId: null,
        athleteIds: [],
        activiteIds: []
      })
    )
    expect(toCoreInput(SessionUpdate, { duree: null, athleteIds: null })).toEqual(new SessionUpdate({}))
    expect(toCoreInput(AthleteUpdate, { sessionIds: null })).toEqual(
      new AthleteUpdate({ name: null, categorie: null, niveau: null, sessionIds: null })
    )
  })

  it("leaves out the fields core's class does not declare", () => {
    const input = toCoreInput(CoachUpdate, { name: "Camille", id: 3 } as { name: string })
    expect(input).toBeInstanceOf(CoachUpdate)
    expect(Object.keys(input)).toEqual(["name"])
  })

  it("keeps a null where the seed gives it a meaning of its own", () => {
    expect(toCoreInput(UserUpdate, { email: null, coachId: null }, { keepNull: ["email"] })).toEqual(
      new UserUpdate({ email: null })
    )
    expect(toCoreInput(UserUpdate, { email: null })).toEqual(new UserUpdate({}))
  })

  it("does not run the class's checks again", () => {
    // A body is decoded (and checked) once, by its endpoint's schema.
    expect(() => new CoachUpdate({ name: "x".repeat(201) })).toThrow()
    expect(toCoreInput(CoachUpdate, { name: "x".repeat(201) }).name).toHaveLength(201)
  })
})
