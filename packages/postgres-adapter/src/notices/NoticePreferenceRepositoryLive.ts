import {
  EntityNotFound,
  type NoticeKind,
  noticeKinds,
  NoticePreference,
  type NoticePreferenceInput,
  NoticePreferenceRepository,
  traced,
  type UserId
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { auditedWrite } from "../shared/transaction.ts"

const PreferenceRows = Schema.Array(Schema.Struct({
  user_id: Schema.Union([Schema.String, Schema.Number, Schema.BigInt]),
  language: Schema.NullOr(Schema.Literals(["fr", "en"])),
  email_enabled: Schema.Boolean,
  muted_kinds: Schema.Array(Schema.String)
}))
const decodeRows = Schema.decodeUnknownEffect(PreferenceRows)

const isKind = (kind: string): kind is NoticeKind => (noticeKinds as ReadonlyArray<string>).includes(kind)

const preferenceOf = (row: (typeof PreferenceRows.Type)[number]) =>
  new NoticePreference({
    userId: Number(row.user_id) as UserId,
    language: row.language,
    emailEnabled: row.email_enabled,
    // A kind the code no longer knows is ignored (migration 0030).
    mutedKinds: row.muted_kinds.filter(isKind)
  })

/**
 * `notice_preferences`, one row per user who chose: a user without one has the defaults, read by
 * the same statement (a left join from `users`, which also tells an unknown user).
 */
export const NoticePreferenceRepositoryLive = Layer.effect(
  NoticePreferenceRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = traced("NoticePreferenceRepository.find")(function*(userId: UserId) {
      const rows = yield* decodeRows(
        yield* sql`SELECT u.id AS user_id, p.language, COALESCE(p.email_enabled, true) AS email_enabled,
          COALESCE(p.muted_kinds, '{}') AS muted_kinds
          FROM users u LEFT JOIN notice_preferences p ON p.user_id = u.id WHERE u.id = ${userId}`
      )
      return Option.map(Option.fromNullishOr(rows[0]), preferenceOf)
    }, dieOnInfrastructureError)

    const set = traced("NoticePreferenceRepository.set")(function*(userId: UserId, input: NoticePreferenceInput) {
      // From `users`: an unknown user inserts nothing, in the same statement.
      const rows = yield* decodeRows(
        yield* auditedWrite(sql)(sql`INSERT INTO notice_preferences (user_id, language, email_enabled, muted_kinds)
          SELECT id, ${input.language}, ${input.emailEnabled}, ${[...input.mutedKinds]}::text[] FROM users
          WHERE id = ${userId}
          ON CONFLICT (user_id) DO UPDATE SET language = EXCLUDED.language,
            email_enabled = EXCLUDED.email_enabled, muted_kinds = EXCLUDED.muted_kinds
          RETURNING user_id, language, email_enabled, muted_kinds`)
      )
      const row = rows[0]
      if (row === undefined) return yield* new EntityNotFound({ entity: "User", id: userId })
      return preferenceOf(row)
    }, dieOnInfrastructureError)

    const mute = traced("NoticePreferenceRepository.mute")(function*(userId: UserId, kind: NoticeKind) {
      // The update of a row that exists works on its latest version (the conflict locks it), so two
      // mutes at once both hold.
      const rows = yield* decodeRows(
        yield* auditedWrite(sql)(sql`INSERT INTO notice_preferences (user_id, muted_kinds)
          SELECT id, ARRAY[${kind}]::text[] FROM users WHERE id = ${userId}
          ON CONFLICT (user_id) DO UPDATE SET muted_kinds = CASE
            WHEN ${kind} = ANY (notice_preferences.muted_kinds) THEN notice_preferences.muted_kinds
            ELSE array_append(notice_preferences.muted_kinds, ${kind}) END
          RETURNING user_id, language, email_enabled, muted_kinds`)
      )
      return Option.map(Option.fromNullishOr(rows[0]), preferenceOf)
    }, dieOnInfrastructureError)

    return NoticePreferenceRepository.of({ find, set, mute })
  })
)
