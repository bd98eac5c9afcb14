import {
  type CoachCreate,
  type CoachId,
  CoachRepository,
  CoachStillOwnsSessions,
  type CoachUpdate,
  EntityNotFound,
  IdAlreadyInUse
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { CoachFromRow } from "../rows/CoachRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { insertWithGeneratedId, insertWithSuppliedId } from "../sql/insertWithId.ts"

const SessionCount = Schema.Array(Schema.Struct({ count: Schema.Int }))

export const CoachRepositoryLive = Layer.effect(
  CoachRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeCoach = Schema.decodeUnknownEffect(CoachFromRow)

    const findOne = SqlSchema.findOneOption({
      Request: Schema.Number,
      Result: CoachFromRow,
      execute: (id) => sql`SELECT id, name FROM coaches WHERE id = ${id}`
    })

    const listAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: CoachFromRow,
      execute: () => sql`SELECT id, name FROM coaches ORDER BY id`
    })

    const countSessions = (id: number) =>
      sql`SELECT count(*)::int AS count FROM sessions WHERE coach_id = ${id}`.pipe(
        Effect.flatMap(Schema.decodeUnknownEffect(SessionCount)),
        Effect.map(([row]) => row?.count ?? 0)
      )

    const create = Effect.fn("CoachRepository.create")(function*(input: CoachCreate) {
      const values = { name: input.name }
      if (input.id === null) return yield* decodeCoach(yield* insertWithGeneratedId(sql, "coaches", values))
      const row = yield* insertWithSuppliedId(sql, "coaches", input.id, values)
      if (Option.isNone(row)) return yield* new IdAlreadyInUse({ entity: "Coach", id: input.id })
      return yield* decodeCoach(row.value)
    }, dieOnInfrastructureError)

    const findById = Effect.fn("CoachRepository.findById")(function*(id: CoachId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const list = Effect.fn("CoachRepository.list")(function*() {
      return yield* listAll(undefined)
    }, dieOnInfrastructureError)

    const update = Effect.fn("CoachRepository.update")(function*(id: CoachId, input: CoachUpdate) {
      const rows = input.name === undefined
        ? yield* sql`SELECT id, name FROM coaches WHERE id = ${id}`
        : yield* sql`UPDATE coaches SET name = ${input.name} WHERE id = ${id} RETURNING id, name`
      if (rows[0] === undefined) return yield* new EntityNotFound({ entity: "Coach", id })
      return yield* decodeCoach(rows[0])
    }, dieOnInfrastructureError)

    const remove = Effect.fn("CoachRepository.delete")(function*(id: CoachId) {
      yield* sql.withTransaction(Effect.gen(function*() {
        // The row lock makes a concurrent session create for this coach wait, so the count stays true.
        const locked = yield* sql`SELECT id FROM coaches WHERE id = ${id} FOR UPDATE`
        if (locked.length === 0) return yield* new EntityNotFound({ entity: "Coach", id })
        const count = yield* countSessions(id)
        if (count > 0) return yield* new CoachStillOwnsSessions({ coachId: id, sessionCount: count })
        // A user's link to the coach goes by ON DELETE SET NULL.
        yield* sql`DELETE FROM coaches WHERE id = ${id}`
      }))
    }, dieOnInfrastructureError)

    return CoachRepository.of({ create, findById, list, update, delete: remove })
  })
)
