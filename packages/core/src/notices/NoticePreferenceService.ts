import { Context, Effect, Layer, Option } from "effect"
import { EntityNotFound } from "../shared/Errors.ts"
import type { UserId } from "../shared/Ids.ts"
import { authorize } from "../shared/Permissions.ts"
import { traced } from "../shared/traced.ts"
import type { NoticePreferenceInput } from "./NoticePreference.ts"
import { NoticePreferenceRepository } from "./NoticePreferenceRepository.ts"
import { UnsubscribeSeal } from "./UnsubscribeSeal.ts"

/** What a forged, altered or outdated unsubscribe link answers: the same whoever it names. */
export const unknownUnsubscribeLink = new EntityNotFound({ entity: "Unsubscribe link", id: "unknown" })

const make = Effect.gen(function*() {
  const repository = yield* NoticePreferenceRepository
  const seal = yield* UnsubscribeSeal

  const found = (userId: UserId) =>
    Effect.flatMap(
      repository.find(userId),
      Option.match({
        onNone: () => Effect.fail(new EntityNotFound({ entity: "User", id: userId })),
        onSome: Effect.succeed
      })
    )

  return {
    /** The caller's own preferences (any user). */
    mine: traced("NoticePreferenceService.mine")(function*() {
      const actor = yield* authorize("noticePreference.own")
      return yield* found(actor.userId)
    }),
    /** Replaces the caller's own preferences (any user). */
    setMine: traced("NoticePreferenceService.setMine")(function*(input: NoticePreferenceInput) {
      const actor = yield* authorize("noticePreference.own")
      return yield* repository.set(actor.userId, input)
    }),
    /** A user's preferences (admins, and the user itself). Unknown user: 404. */
    ofUser: traced("NoticePreferenceService.ofUser")(function*(userId: UserId) {
      yield* authorize("noticePreference.manage", { userId })
      return yield* found(userId)
    }),
    /** Replaces a user's preferences (admins, and the user itself). Unknown user: 404. */
    setForUser: traced("NoticePreferenceService.setForUser")(function*(userId: UserId, input: NoticePreferenceInput) {
      yield* authorize("noticePreference.manage", { userId })
      return yield* repository.set(userId, input)
    }),
    /**
     * One-click unsubscribe (RFC 8058): mutes the kind the token was signed for, at once. The token
     * is the authority, as a feed token is: no caller, no role. Muting again changes nothing. A token
     * that does not open, or names a user since deleted: `unknownUnsubscribeLink`, which does not say
     * which.
     */
    unsubscribe: traced("NoticePreferenceService.unsubscribe")(function*(token: string) {
      const target = seal.open(token)
      if (Option.isNone(target)) return yield* unknownUnsubscribeLink
      const muted = yield* repository.mute(target.value.userId, target.value.kind)
      if (Option.isNone(muted)) return yield* unknownUnsubscribeLink
      return { kind: target.value.kind }
    }),
    /**
     * The kind the token would mute, for the page a GET shows; changes nothing. Refused as
     * `unsubscribe` refuses it, so the page never promises what the POST would not do.
     */
    unsubscribeTarget: traced("NoticePreferenceService.unsubscribeTarget")(function*(token: string) {
      const target = seal.open(token)
      if (Option.isNone(target)) return yield* unknownUnsubscribeLink
      if (Option.isNone(yield* repository.find(target.value.userId))) return yield* unknownUnsubscribeLink
      return { kind: target.value.kind }
    })
  }
})

/**
 * Each user's notice preferences and one-click unsubscribe (issue 42, docs/notices.md "Preferences
 * and unsubscribe").
 */
export class NoticePreferenceService extends Context.Service<NoticePreferenceService, Effect.Success<typeof make>>()(
  "@club/core/NoticePreferenceService"
) {
  static readonly layer = Layer.effect(NoticePreferenceService, make)
}
