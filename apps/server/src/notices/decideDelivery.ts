import type { ClaimedNotice, NoticeLanguage } from "@club/core"
import { Effect } from "effect"
import { AppConfig } from "../AppConfig.ts"

/**
 * Whether and how one notice is sent: suppressed (with the reason kept on the notice), or sent in a
 * language with extra headers. The one seam for the recipient's own choices (their language, email
 * on or off, muted kinds, RFC 8058 unsubscribe headers). Today: a recipient whose email address was
 * removed since the notice was queued is not written to; every other notice is sent in the club's
 * language (CLUB_LANGUAGE) with no extra header.
 */
export type DeliveryDecision =
  | { readonly _tag: "suppress"; readonly reason: string }
  | {
    readonly _tag: "send"
    readonly language: NoticeLanguage
    readonly headers: Readonly<Record<string, string>>
  }

export const decideDelivery = (notice: ClaimedNotice): Effect.Effect<DeliveryDecision, never, AppConfig> =>
  AppConfig.useSync((config): DeliveryDecision =>
    notice.recipientEmail === ""
      ? { _tag: "suppress", reason: "the recipient has no email address" }
      : { _tag: "send", language: config.clubLanguage, headers: {} }
  )
