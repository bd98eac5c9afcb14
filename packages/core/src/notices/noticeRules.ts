/**
 * Which outbox events become email notices, of which kind, for whom (issue 42). Core decides; the
 * stores only expand the answer into people (an athlete's user and its guardians) in the event's
 * own transaction, so a notice exists exactly when its event does.
 */

/** The notices a person can receive; each has its own text (renderNotice.ts). */
export const noticeKinds = ["promoted", "sessionCancelled", "reminder"] as const
export type NoticeKind = (typeof noticeKinds)[number]

/**
 * Who is told, before expansion to users: named athletes, or every athlete invited to the event's
 * session (its own athletes and the members of its group on the session's day, docs/membership.md).
 * Either way each athlete's user and each linked guardian receive one notice; a user without an
 * email address receives none.
 */
export type NoticeAudience =
  | { readonly _tag: "athletes"; readonly athleteIds: ReadonlyArray<number> }
  | { readonly _tag: "invitees" }

export interface NoticeRule {
  readonly kind: NoticeKind
  readonly audience: NoticeAudience
}

const athleteIdOf = (data: Readonly<Record<string, unknown>>): number | undefined =>
  typeof data["athleteId"] === "number" && Number.isSafeInteger(data["athleteId"]) ? data["athleteId"] : undefined

/**
 * The rule for one event, or none. Takes the type as a plain string: `sessionCancelled` is written by
 * another change (issue 42's domain events) and must map here the day it exists.
 */
export const noticeRuleFor = (
  event: { readonly type: string; readonly sessionId: number | null; readonly data: Readonly<Record<string, unknown>> }
): NoticeRule | undefined => {
  switch (event.type) {
    case "promotion": {
      const athleteId = athleteIdOf(event.data)
      return athleteId === undefined
        ? undefined
        : { kind: "promoted", audience: { _tag: "athletes", athleteIds: [athleteId] } }
    }
    case "sessionCancelled":
      return event.sessionId === null ? undefined : { kind: "sessionCancelled", audience: { _tag: "invitees" } }
    default:
      return undefined
  }
}

/** One notice per event and person: the unique key every store writes, so a replay inserts nothing. */
export const noticeDedupeKey = (eventId: number | string, userId: number | string): string => `${eventId}:${userId}`

/** `<notice-<id>@<host>>`: the same on every attempt, so a receiver can drop a resend after a crash. */
export const noticeMessageId = (noticeId: number | string, host: string): string => `<notice-${noticeId}@${host}>`
