import {
  type AthleteId,
  EntityNotFound,
  GuardianshipBounds,
  GuardianshipRepository,
  TooManyGuardianships,
  traced,
  type UserId
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { int8Array } from "../shared/int8Array.ts"
import { readsGathered } from "../shared/readsGathered.ts"
import { transaction } from "../shared/transaction.ts"

/** A record's id and one of its links (null when it has none): a left join, so that a known record without links still answers. */
const LinkRows = Schema.Array(Schema.Struct({ of: Schema.Number, linked: Schema.NullOr(Schema.Number) }))
const decodeLinkRows = Schema.decodeUnknownEffect(LinkRows)

const FoundRow = Schema.Struct({ user_found: Schema.Boolean, athlete_found: Schema.Boolean })
const decodeFound = Schema.decodeUnknownEffect(FoundRow)
const CountsRow = Schema.Struct({ linked: Schema.Boolean, of_user: Schema.Number, of_athlete: Schema.Number })
const decodeCounts = Schema.decodeUnknownEffect(CountsRow)

/** The links of the ids asked (`of`), or none for an id that names no record. */
const linksOf = (rows: ReadonlyArray<typeof LinkRows.Type[number]>) =>
  rows.length === 0 ? Option.none() : Option.some(rows.flatMap((row) => row.linked === null ? [] : [row.linked]))

/**
 * `guardianships (user_id, athlete_id)` (migration 0024): its primary key answers a user's athletes,
 * `guardianships_athlete_idx` an athlete's guardians; the foreign keys' cascade removes the links of
 * a deleted user or athlete.
 */
export const GuardianshipRepositoryLive = Layer.effect(
  GuardianshipRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inTransaction = transaction(sql)

    /**
     * One transaction: the user's and the athlete's rows locked first (`FOR NO KEY UPDATE`, which
     * the foreign keys' checks do not wait for, and in that order, so two links never wait on each
     * other in a cycle), then, in a statement of its own that sees what the locks waited for, the
     * link and the counts the bounds judge, then the insert. Two links of one user (or of one
     * athlete) at once are thus one after the other, and never pass a bound together.
     */
    const link = traced("GuardianshipRepository.link")(function*(userId: UserId, athleteId: AthleteId) {
      return yield* inTransaction(Effect.gen(function*() {
        const found = yield* Effect.orDie(decodeFound(
          (yield* sql`WITH u AS (SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE),
            a AS (SELECT id FROM athletes WHERE id = ${athleteId} FOR NO KEY UPDATE)
            SELECT EXISTS (SELECT 1 FROM u) AS user_found, EXISTS (SELECT 1 FROM a) AS athlete_found`)[0]
        ))
        if (!found.user_found) return yield* new EntityNotFound({ entity: "User", id: userId })
        if (!found.athlete_found) return yield* new EntityNotFound({ entity: "Athlete", id: athleteId })
        const counts = yield* Effect.orDie(decodeCounts(
          (yield* sql`SELECT
            EXISTS (SELECT 1 FROM guardianships WHERE user_id = ${userId} AND athlete_id = ${athleteId}) AS linked,
            (SELECT count(*)::int FROM guardianships WHERE user_id = ${userId}) AS of_user,
            (SELECT count(*)::int FROM guardianships WHERE athlete_id = ${athleteId}) AS of_athlete`)[0]
        ))
        if (counts.linked) return false
        if (counts.of_user >= GuardianshipBounds.athletesPerGuardian) {
          return yield* new TooManyGuardianships({
            of: "user",
            id: userId,
            max: GuardianshipBounds.athletesPerGuardian
          })
        }
        if (counts.of_athlete >= GuardianshipBounds.guardiansPerAthlete) {
          return yield* new TooManyGuardianships({
            of: "athlete",
            id: athleteId,
            max: GuardianshipBounds.guardiansPerAthlete
          })
        }
        yield* sql`INSERT INTO guardianships (user_id, athlete_id) VALUES (${userId}, ${athleteId})`
        return true
      }))
    }, dieOnInfrastructureError)

    const unlink = traced("GuardianshipRepository.unlink")(function*(userId: UserId, athleteId: AthleteId) {
      const removed = yield* sql`DELETE FROM guardianships WHERE user_id = ${userId} AND athlete_id = ${athleteId}
        RETURNING user_id`
      return removed.length > 0
    }, dieOnInfrastructureError)

    const athletesOf = traced("GuardianshipRepository.athletesOf")(function*(userId: UserId) {
      const rows = yield* Effect.orDie(decodeLinkRows(
        yield* sql`SELECT u.id::float8 AS "of", g.athlete_id::float8 AS linked FROM users u
          LEFT JOIN guardianships g ON g.user_id = u.id WHERE u.id = ${userId} ORDER BY g.athlete_id`
      ))
      return Option.map(linksOf(rows), (ids) => ids.map((id) => id as AthleteId))
    }, dieOnInfrastructureError)

    // The guardians of the athletes asked for in one turn of the event loop (every reply reads them), one statement.
    const guardiansOfAthletes = readsGathered({
      sql,
      readMany: (athleteIds) =>
        Effect.flatMap(
          sql`SELECT a.id::float8 AS "of", g.user_id::float8 AS linked FROM athletes a
            LEFT JOIN guardianships g ON g.athlete_id = a.id
            WHERE a.id = ANY(${int8Array(athleteIds)}::bigint[]) ORDER BY a.id, g.user_id`,
          (rows) => Effect.orDie(decodeLinkRows(rows))
        ),
      idOf: (row) => row.of,
      answerOf: linksOf,
      keyOf: () => ""
    })
    const guardiansOf = traced("GuardianshipRepository.guardiansOf")(function*(athleteId: AthleteId) {
      return Option.map(yield* guardiansOfAthletes(athleteId, undefined), (ids) => ids.map((id) => id as UserId))
    }, dieOnInfrastructureError)

    return GuardianshipRepository.of({ link, unlink, athletesOf, guardiansOf })
  })
)
