import { Context, type Option } from "effect"
import type { UserId } from "../shared/Ids.ts"
import type { NoticeKind } from "./noticeRules.ts"

/** What an unsubscribe link stands for: one user, one kind of notice. */
export interface UnsubscribeTarget {
  readonly userId: UserId
  readonly kind: NoticeKind
}

/** The longest unsubscribe token `open` reads: anything longer is refused unread. */
export const maxUnsubscribeTokenLength = 128

/**
 * Signs the tokens of one-click unsubscribe links (RFC 8058): `sign` turns a (user, kind) into an
 * opaque, unguessable token, `open` gives the pair back only for a token signed with the same key.
 * Nothing is stored: a link works for as long as the key is the same (on the server, a key derived
 * from the token secret, so every instance sharing it opens the others' links).
 */
export class UnsubscribeSeal extends Context.Service<UnsubscribeSeal, {
  /** A base64url token, at most `maxUnsubscribeTokenLength` characters. */
  sign(target: UnsubscribeTarget): string
  /** The target the token was signed for; none for anything else, an altered token included. */
  open(token: string): Option.Option<UnsubscribeTarget>
}>()("@club/core/UnsubscribeSeal") {}
