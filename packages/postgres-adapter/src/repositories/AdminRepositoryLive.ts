import { type AdminCreate, type AdminId, AdminRepository, type AdminUpdate, EntityNotFound, IdAlreadyInUse } from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { AdminFromRow } from "../rows/AdminRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { insertWithGeneratedId, insertWithSuppliedId } from "../sql/insertWithId.ts"

export const AdminRepositoryLive = Layer.effect(
  AdminRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeAdmin = Schema.decodeUnknownEffect(AdminFromRow)

    const findOne = SqlSchema.findOneOption({
      Request: Schema.Number,
      Result: AdminFromRow,
      execute: (id) => sql`SELECT id, name FROM admins WHERE id = ${id}`
    })

    const listAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: AdminFromRow,
      execute: () => sql`SELECT id, name FROM admins ORDER BY id`
    })

    const create = Effect.fn("AdminRepository.create")(function*(input: AdminCreate) {
      const values = { name: input.name }
      if (input.id === null) return yield* decodeAdmin(yield* insertWithGeneratedId(sql, "admins", values))
      const row = yield* insertWithSuppliedId(sql, "admins", input.id, values)
      if (Option.isNone(row)) return yield* new IdAlreadyInUse({ entity: "Admin", id: input.id })
      return yield* decodeAdmin(row.value)
    }, dieOnInfrastructureError)

    const findById = Effect.fn("AdminRepository.findById")(function*(id: AdminId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const list = Effect.fn("AdminRepository.list")(function*() {
      return yield* listAll(undefined)
    }, dieOnInfrastructureError)

    const update = Effect.fn("AdminRepository.update")(function*(id: AdminId, input: AdminUpdate) {
      const rows = input.name === undefined
        ? yield* sql`SELECT id, name FROM admins WHERE id = ${id}`
        : yield* sql`UPDATE admins SET name = ${input.name} WHERE id = ${id} RETURNING id, name`
      if (rows[0] === undefined) return yield* new EntityNotFound({ entity: "Admin", id })
      return yield* decodeAdmin(rows[0])
    }, dieOnInfrastructureError)

    const remove = Effect.fn("AdminRepository.delete")(function*(id: AdminId) {
      // A user's link to the admin goes by ON DELETE SET NULL.
      const deleted = yield* sql`DELETE FROM admins WHERE id = ${id} RETURNING id`
      if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Admin", id })
    }, dieOnInfrastructureError)

    return AdminRepository.of({ create, findById, list, update, delete: remove })
  })
)
