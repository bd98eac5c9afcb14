import { Context, type Effect, type Option } from "effect"
import type { EntityNotFound } from "../shared/Errors.ts"
import type { UserId } from "../shared/Ids.ts"
import type { NoticeKind } from "./noticeRules.ts"
import type { NoticePreference, NoticePreferenceInput } from "./NoticePreference.ts"

/**
 * Each user's notice preferences (issue 42), at most one record per user; a user who never chose
 * has the defaults (`defaultNoticePreference`). Deleting a user removes its preferences.
 */
export class NoticePreferenceRepository extends Context.Service<NoticePreferenceRepository, {
  /** The user's preferences, the defaults when it never chose; none for an unknown user. One statement. */
  find(userId: UserId): Effect.Effect<Option.Option<NoticePreference>>
  /** Replaces the user's preferences and answers them. Unknown user: `EntityNotFound`, nothing written. One statement. */
  set(userId: UserId, input: NoticePreferenceInput): Effect.Effect<NoticePreference, EntityNotFound>
  /**
   * Adds `kind` to the user's muted kinds, keeping the rest of its choice (muting a muted kind
   * changes nothing), and answers the preferences; none for an unknown user. One statement, so two
   * at once both hold.
   */
  mute(userId: UserId, kind: NoticeKind): Effect.Effect<Option.Option<NoticePreference>>
}>()("@club/core/NoticePreferenceRepository") {}
