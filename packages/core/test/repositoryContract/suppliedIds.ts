import {
  AdminCreate,
  AdminId,
  AdminRepository,
  AthleteCreate,
  AthleteId,
  AthleteRepository,
  CoachCreate,
  CoachId,
  CoachRepository,
  type EntityKind,
  IdAlreadyInUse,
  Limits,
  SessionId,
  SessionRepository
} from "@club/core"
import { expect } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { newSession } from "./fixtures.ts"
import type { ContractSuite } from "./Contract.ts"

/** The four kinds whose create honours a supplied id, behind one shape for these tests. */
export interface SuppliedIdKind {
  readonly entity: EntityKind
  readonly create: (id: number | null, name: string) => Effect.Effect<{ readonly id: number }, unknown, never>
  readonly nameOf: (id: number) => Effect.Effect<Option.Option<string | null>, never, never>
  readonly delete: (id: number) => Effect.Effect<void, unknown, never>
}

export const suppliedIdKinds = Effect.gen(function*() {
  const athletes = yield* AthleteRepository
  const coaches = yield* CoachRepository
  const admins = yield* AdminRepository
  const sessions = yield* SessionRepository
  const result: ReadonlyArray<SuppliedIdKind> = [
    {
      entity: "Athlete",
      create: (id, name) =>
        athletes.create(
          new AthleteCreate({ id: id === null ? null : AthleteId.make(id), name, categorie: null, niveau: null })
        ),
      nameOf: (id) => athletes.findById(AthleteId.make(id)).pipe(Effect.map(Option.map((a) => a.name))),
      delete: (id) => athletes.delete(AthleteId.make(id))
    },
    {
      entity: "Coach",
      create: (id, name) => coaches.create(new CoachCreate({ id: id === null ? null : CoachId.make(id), name })),
      nameOf: (id) => coaches.findById(CoachId.make(id)).pipe(Effect.map(Option.map((c) => c.name))),
      delete: (id) => coaches.delete(CoachId.make(id))
    },
    {
      entity: "Admin",
      create: (id, name) => admins.create(new AdminCreate({ id: id === null ? null : AdminId.make(id), name })),
      nameOf: (id) => admins.findById(AdminId.make(id)).pipe(Effect.map(Option.map((a) => a.name))),
      delete: (id) => admins.delete(AdminId.make(id))
    },
    {
      entity: "Session",
      create: (id, name) => sessions.create(newSession(id === null ? { name } : { id: SessionId.make(id), name })),
      nameOf: (id) => sessions.findById(SessionId.make(id)).pipe(Effect.map(Option.map((s) => s.name))),
      delete: (id) => sessions.delete(SessionId.make(id))
    }
  ]
  return result
})

export const suppliedIdsContract: ContractSuite = {
  title: "Supplied ids",
  tests: (it) => {
    it.effect("a free supplied id is used, a taken one is refused and the record kept", () =>
      Effect.gen(function*() {
        for (const kind of yield* suppliedIdKinds) {
          const created = yield* kind.create(500, `${kind.entity} 500`)
          expect(created.id).toBe(500)
          expect(yield* kind.nameOf(500)).toEqual(Option.some(`${kind.entity} 500`))

          const refused = yield* Effect.flip(kind.create(500, "intruder"))
          expect(refused).toBeInstanceOf(IdAlreadyInUse)
          expect(refused).toMatchObject({ entity: kind.entity, id: 500 })
          expect(yield* kind.nameOf(500)).toEqual(Option.some(`${kind.entity} 500`))
        }
      }))

    it.effect("generated ids never collide with supplied ones", () =>
      Effect.gen(function*() {
        for (const kind of yield* suppliedIdKinds) {
          yield* kind.create(1000, "supplied")
          const generated = yield* Effect.forEach([1, 2, 3, 4, 5], (n) => kind.create(null, `generated ${n}`))
          const ids = generated.map((record) => record.id)
          expect(ids).not.toContain(1000)
          expect(new Set(ids).size).toBe(ids.length)
          expect(ids.every((id) => id > 1000)).toBe(true)
          expect(yield* kind.nameOf(1000)).toEqual(Option.some("supplied"))
        }
      }))

    it.effect("a supplied id below the sequence is used when free, and the sequence does not go back", () =>
      Effect.gen(function*() {
        for (const kind of yield* suppliedIdKinds) {
          const low = yield* kind.create(7, "low")
          expect(low.id).toBe(7)
          const next = yield* kind.create(null, "after low")
          expect(next.id).toBeGreaterThan(1000)
        }
      }))

    it.effect("concurrent creates with and without ids: distinct ids, supplied ids honoured unless taken", () =>
      Effect.gen(function*() {
        for (const kind of yield* suppliedIdKinds) {
          const supplied = [3001, 3003, 3005, 3007]
          const outcomes = yield* Effect.all(
            [
              ...supplied.map((id) => Effect.result(kind.create(id, `supplied ${id}`))),
              ...Array.from({ length: 12 }, (_, n) => Effect.result(kind.create(null, `racing ${n}`)))
            ],
            { concurrency: "unbounded" }
          )
          const ids = outcomes.flatMap((outcome) => Result.isSuccess(outcome) ? [outcome.success.id] : [])
          expect(new Set(ids).size).toBe(ids.length)
          for (const [index, outcome] of outcomes.entries()) {
            const suppliedId = supplied[index]
            if (suppliedId === undefined) {
              // Every create without an id succeeds, whatever supplied ids race it.
              expect(Result.isSuccess(outcome)).toBe(true)
            } else if (Result.isSuccess(outcome)) {
              expect(outcome.success.id).toBe(suppliedId)
            } else {
              // Refused only because a record created concurrently already holds the id.
              expect(outcome.failure).toMatchObject({ _tag: "IdAlreadyInUse", id: suppliedId })
              expect(ids).toContain(suppliedId)
            }
          }
        }
      }))

    it.effect("the id of a deleted record is not generated again", () =>
      Effect.gen(function*() {
        for (const kind of yield* suppliedIdKinds) {
          const deleted = yield* kind.create(null, "deleted")
          yield* kind.delete(deleted.id)
          const next = yield* kind.create(null, "next")
          expect(next.id, kind.entity).toBeGreaterThan(deleted.id)
        }
      }))

    it.effect("after a supplied id of 2^31-1, the largest allowed, generated ids go on above it", () =>
      Effect.gen(function*() {
        for (const kind of yield* suppliedIdKinds) {
          expect((yield* kind.create(Limits.maxSuppliedId, "at the bound")).id, kind.entity).toBe(Limits.maxSuppliedId)
          const generated = yield* Effect.forEach([1, 2, 3], () => kind.create(null, "above the bound"))
          for (const record of generated) expect(record.id, kind.entity).toBeGreaterThan(Limits.maxSuppliedId)
          expect(new Set(generated.map((record) => record.id)).size, kind.entity).toBe(3)
        }
      }))
  }
}
