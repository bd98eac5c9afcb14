import { Schema } from "effect"
import { UserId } from "../shared/Ids.ts"
import { type NoticeKind, noticeKinds } from "./noticeRules.ts"
import { type NoticeLanguage, noticeLanguages } from "./renderNotice.ts"

/** The languages a user may choose for their notices (the club's CLUB_LANGUAGE is one of them too). */
export const languages = noticeLanguages
export const Language = Schema.Literals(languages).annotate({
  description: `The language of the user's notices: ${languages.join(" or ")}.`
})

/** A kind of notice, as a user names it to mute it. */
export const NoticeKindName = Schema.Literals(noticeKinds).annotate({
  description: `A kind of notice: ${noticeKinds.join(", ")}.`
})

/**
 * The kinds a user has muted: each at most once, so the list is bounded by the kinds there are.
 * Stored in the order given, which answers echo.
 */
export const MutedKinds = Schema.Array(NoticeKindName).check(
  Schema.makeFilter((kinds: ReadonlyArray<NoticeKind>) => new Set(kinds).size === kinds.length, {
    expected: "each kind at most once"
  })
).annotate({
  description: `The kinds of notice the user does not want, each at most once (${noticeKinds.length} kinds at most).`
})

/** What a user chose for their notices: what `PUT /notices/preferences` sets, whole. */
export const NoticePreferenceValues = {
  language: Schema.NullOr(Language).annotate({
    description: "The language of the user's notices; null: the club's (CLUB_LANGUAGE)."
  }),
  emailEnabled: Schema.Boolean.annotate({
    description: "false: no notice is emailed to the user, whatever the kind."
  }),
  mutedKinds: MutedKinds
} as const

/** A user's notice preferences. A user who never chose has the defaults: every notice, in the club's language. */
export class NoticePreference extends Schema.Class<NoticePreference>("NoticePreference")({
  userId: UserId,
  ...NoticePreferenceValues
}) {}

/** A whole new choice of preferences (a PUT replaces them). */
export class NoticePreferenceInput extends Schema.Class<NoticePreferenceInput>("NoticePreferenceInput")(
  NoticePreferenceValues
) {}

/** What a user who never chose receives: every kind, by email, in the club's language. */
export const defaultNoticePreference = (userId: UserId): NoticePreference =>
  new NoticePreference({ userId, language: null, emailEnabled: true, mutedKinds: [] })

/** Whether the user wants a notice of this kind: email on and the kind not muted. */
export const noticeWanted = (preference: NoticePreference, kind: NoticeKind): boolean =>
  preference.emailEnabled && !preference.mutedKinds.includes(kind)

/** The language to write the user's notices in: their own choice, else the club's. */
export const noticeLanguage = (preference: NoticePreference, clubLanguage: NoticeLanguage): NoticeLanguage =>
  preference.language ?? clubLanguage

/** What the sender does with one notice, from its recipient's preferences. */
export type NoticeDelivery =
  | { readonly _tag: "suppress" }
  | { readonly _tag: "send"; readonly language: NoticeLanguage }

/**
 * `noticeWanted` and `noticeLanguage` together, as the sending worker asks them: suppress a notice
 * the user does not want (it is dropped, never sent later), else send it in the user's language.
 */
export const noticeDelivery = (
  preference: NoticePreference,
  kind: NoticeKind,
  clubLanguage: NoticeLanguage
): NoticeDelivery =>
  noticeWanted(preference, kind)
    ? { _tag: "send", language: noticeLanguage(preference, clubLanguage) }
    : { _tag: "suppress" }
