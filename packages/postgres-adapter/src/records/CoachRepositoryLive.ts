import { traced } from "@club/core"
import { type CoachId, CoachRepository, CoachStillOwnsSessions, CoachTable, EntityNotFound } from "@club/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { countFromRow } from "../shared/countRow.ts"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { CredentialsCache } from "../users/CredentialsCache.ts"
import { recordRepository } from "./recordRepository.ts"

export const CoachRepositoryLive = Layer.effect(
  CoachRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const credentials = yield* CredentialsCache
    const records = yield* recordRepository(CoachTable)

    const countSessions = (id: number) =>
      sql`SELECT count(*)::int AS count FROM sessions WHERE coach_id = ${id}`.pipe(
        Effect.map(([row]) => row === undefined ? 0 : countFromRow(row).count)
      )

    const remove = traced("CoachRepository.delete")(function*(id: CoachId) {
      // One transaction (`invalidating` opens it): the row lock below holds until the delete commits.
      yield* credentials.invalidating(Effect.gen(function*() {
        // The row lock makes a concurrent session create for this coach wait, so the count stays true.
        const locked = yield* sql`SELECT id FROM coaches WHERE id = ${id} FOR UPDATE`
        if (locked.length === 0) return yield* new EntityNotFound({ entity: "Coach", id })
        const count = yield* countSessions(id)
        if (count > 0) return yield* new CoachStillOwnsSessions({ coachId: id, sessionCount: count })
        // A user's link to the coach goes by ON DELETE SET NULL.
        yield* sql`DELETE FROM coaches WHERE id = ${id}`
      }))
    }, dieOnInfrastructureError)

    return CoachRepository.of({ ...records, delete: remove })
  })
)
