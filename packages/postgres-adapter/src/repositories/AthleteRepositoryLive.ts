import { traced } from "@club/core"
import {
  type AthleteCreate,
  type AthleteId,
  AthleteRepository,
  type AthleteUpdate,
  EntityNotFound,
  IdAlreadyInUse
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { AthleteFromRow } from "../rows/AthleteRow.ts"
import { dieOnInfrastructureError } from "../sql/dieOnInfrastructureError.ts"
import { insertWithGeneratedId, insertWithSuppliedId } from "../sql/insertWithId.ts"
import { int8Array } from "../sql/int8Array.ts"
import { requireKnownIds } from "../sql/requireKnownIds.ts"
import { CredentialsCache } from "./credentialsCache.ts"
import { transaction } from "../sql/transaction.ts"

export const AthleteRepositoryLive = Layer.effect(
  AthleteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const credentials = yield* CredentialsCache
    const decodeAthlete = Schema.decodeUnknownEffect(AthleteFromRow)

    const findOne = SqlSchema.findOneOption({
      Request: Schema.Number,
      Result: AthleteFromRow,
      execute: (id) => sql`SELECT id, name, categorie, niveau FROM athletes WHERE id = ${id}`
    })

    const listAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: AthleteFromRow,
      execute: () => sql`SELECT id, name, categorie, niveau FROM athletes ORDER BY id`
    })

    const replaceMemberships = (athleteId: number, sessionIds: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        const ids = int8Array(sessionIds)
        yield* sql`DELETE FROM session_athletes
          WHERE athlete_id = ${athleteId} AND NOT (session_id = ANY(${ids}::bigint[]))`
        if (ids.length > 0) {
          yield* sql`INSERT INTO session_athletes (session_id, athlete_id)
            SELECT session_id, ${athleteId} FROM unnest(${ids}::bigint[]) AS session_id
            ON CONFLICT DO NOTHING`
        }
      })

    /** The insert and the decode of the stored row are one transaction: a row that cannot be answered is not kept. */
    const create = traced("AthleteRepository.create")(function*(input: AthleteCreate) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const values = { name: input.name, categorie: input.categorie, niveau: input.niveau }
        if (input.id === null) return yield* decodeAthlete(yield* insertWithGeneratedId(sql, "athletes", values))
        const row = yield* insertWithSuppliedId(sql, "athletes", input.id, values)
        if (Option.isNone(row)) return yield* new IdAlreadyInUse({ entity: "Athlete", id: input.id })
        return yield* decodeAthlete(row.value)
      }))
    }, dieOnInfrastructureError)

    const findById = traced("AthleteRepository.findById")(function*(id: AthleteId) {
      return yield* findOne(id)
    }, dieOnInfrastructureError)

    const list = traced("AthleteRepository.list")(function*() {
      return yield* listAll(undefined)
    }, dieOnInfrastructureError)

    const update = traced("AthleteRepository.update")(function*(id: AthleteId, input: AthleteUpdate) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const [row] = yield* sql`UPDATE athletes
          SET ${sql.update({ name: input.name, categorie: input.categorie, niveau: input.niveau })}
          WHERE id = ${id} RETURNING id, name, categorie, niveau`
        if (row === undefined) return yield* new EntityNotFound({ entity: "Athlete", id })
        if (input.sessionIds !== null) {
          yield* requireKnownIds(sql, {
            field: "sessionIds",
            entity: "Session",
            table: "sessions",
            ids: input.sessionIds
          })
          yield* replaceMemberships(id, input.sessionIds)
        }
        return yield* decodeAthlete(row)
      }))
    }, dieOnInfrastructureError)

    const remove = traced("AthleteRepository.delete")(function*(id: AthleteId) {
      // Memberships go by ON DELETE CASCADE, and a user's link by ON DELETE SET NULL.
      const deleted = yield* credentials.invalidating(sql`DELETE FROM athletes WHERE id = ${id} RETURNING id`)
      if (deleted.length === 0) return yield* new EntityNotFound({ entity: "Athlete", id })
    }, dieOnInfrastructureError)

    return AthleteRepository.of({ create, findById, list, update, delete: remove })
  })
)
