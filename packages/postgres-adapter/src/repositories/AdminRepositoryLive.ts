import { traced } from "@club/core"
import { type Admin, type AdminId, AdminRepository, EntityNotFound } from "@club/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { adminFromRow } from "../rows/AdminRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { CredentialsCache } from "./credentialsCache.ts"
import { namedRecords } from "./namedRecords.ts"

export const AdminRepositoryLive = Layer.effect(
  AdminRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const credentials = yield* CredentialsCache
    const records = namedRecords<Admin, AdminId>(sql, {
      table: "admins",
      entity: "Admin",
      fromRow: adminFromRow
    })

    const remove = traced("AdminRepository.delete")(function*(id: AdminId) {
      // A user's link to the admin goes by ON DELETE SET NULL.
      const deleted = yield* credentials.invalidating(sql`DELETE FROM admins WHERE id = ${id} RETURNING id`)
      if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Admin", id })
    }, dieOnInfrastructureError)

    return AdminRepository.of({ ...records, delete: remove })
  })
)
