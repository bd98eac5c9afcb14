import { traced } from "@club/core"
import {
  Athlete,
  type AthleteId,
  AthleteRepository,
  AthleteTable,
  type AthleteUpdate,
  EntityNotFound
} from "@club/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { athleteFromRow } from "./athleteRow.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { int8Array } from "../shared/int8Array.ts"
import { requireKnownIds } from "../shared/requireKnownIds.ts"
import { selectListOf } from "../shared/snakeCase.ts"
import { CredentialsCache } from "../users/CredentialsCache.ts"
import { recordRepository } from "./recordRepository.ts"
import { transaction } from "../shared/transaction.ts"

export const AthleteRepositoryLive = Layer.effect(
  AthleteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const credentials = yield* CredentialsCache
    const columns = sql.literal(selectListOf(Object.keys(Athlete.fields)))

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

    const { create, findById, list } = yield* recordRepository(AthleteTable)

    const update = traced("AthleteRepository.update")(function*(id: AthleteId, input: AthleteUpdate) {
      return yield* transaction(sql)(Effect.gen(function*() {
        const [row] = yield* sql`UPDATE athletes
          SET ${sql.update({ name: input.name, categorie: input.categorie, niveau: input.niveau })}
          WHERE id = ${id} RETURNING ${columns}`
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
        return athleteFromRow(row)
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
