import {
  type ClaimedNotice,
  noticeDelivery,
  type NoticeLanguage,
  NoticePreferenceRepository,
  UnsubscribeSeal,
  unsubscribeHeaders,
  unsubscribeLink,
  type UserId
} from "@club/core"
import { Effect, Option } from "effect"
import { AppConfig } from "../AppConfig.ts"

/**
 * Whether and how one notice is sent: suppressed (with the reason kept on the notice), or sent in a
 * language with extra headers. The recipient's own choices are read here, at the send, so a change
 * (or a one-click unsubscribe) holds at once for notices already queued: a recipient gone or without
 * an email address, email turned off or the kind muted suppresses the notice; else it is sent in the
 * recipient's language (the club's, CLUB_LANGUAGE, when they chose none), with the RFC 8058 headers of
 * a signed link that mutes this kind for this recipient.
 */
export type DeliveryDecision =
  | { readonly _tag: "suppress"; readonly reason: string }
  | {
    readonly _tag: "send"
    readonly language: NoticeLanguage
    readonly headers: Readonly<Record<string, string>>
  }

/** The service's public address: unsubscribe links and Message-IDs are built on it. */
export const publicUrlOf = (config: AppConfig["Service"]): string =>
  Option.getOrElse(config.publicUrl, () => `http://localhost:${config.port}`)

export const decideDelivery = (
  notice: ClaimedNotice
): Effect.Effect<DeliveryDecision, never, AppConfig | NoticePreferenceRepository | UnsubscribeSeal> =>
  Effect.gen(function*() {
    if (notice.recipientEmail === "") return { _tag: "suppress", reason: "the recipient has no email address" }
    const config = yield* AppConfig
    const userId = notice.recipientUserId as UserId
    const preference = yield* (yield* NoticePreferenceRepository).find(userId)
    if (Option.isNone(preference)) return { _tag: "suppress", reason: "the recipient is gone" }
    const delivery = noticeDelivery(preference.value, notice.kind, config.clubLanguage)
    if (delivery._tag === "suppress") {
      return { _tag: "suppress", reason: "the recipient turned this notice off" }
    }
    const link = yield* unsubscribeLink(publicUrlOf(config), { userId, kind: notice.kind })
    return { _tag: "send", language: delivery.language, headers: unsubscribeHeaders(link) }
  })
