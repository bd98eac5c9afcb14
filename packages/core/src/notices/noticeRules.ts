/**
 * Which outbox events become email notices, of which kind, for whom (issue 42). Core decides; the
 * stores only expand the answer into people (an athlete's user and its guardians) in the event's
 * own transaction, so a notice exists exactly when its event does.
 */

/** The notices a person can receive; each has its own text (renderNotice.ts). */
export const noticeKinds = ["invitation", "reminder", "promoted", "sessionChanged", "sessionCancelled"] as const
export type NoticeKind = (typeof noticeKinds)[number]

/**
 * Who is told, before expansion to users: named athletes; every athlete invited to the event's
 * session (its own athletes and the members of its group on the session's day, docs/membership.md;
 * for a `sessionCancelled`, whose session is gone, its event's `athleteIds` and `groupe` with the
 * day of its `creneau`); or, for a series (`seriesInvitees`), the series' own athletes and the
 * members of the group its `groupe` names on the day of its `start` (decision 0282). Whichever,
 * each athlete's user and each linked guardian receive one notice; a user without an email address
 * receives none.
 */
export type NoticeAudience =
  | { readonly _tag: "athletes"; readonly athleteIds: ReadonlyArray<number> }
  | { readonly _tag: "invitees" }
  | { readonly _tag: "seriesInvitees"; readonly seriesId: number }
  | {
    readonly _tag: "formerInvitees"
    readonly athleteIds: ReadonlyArray<number>
    readonly groupe: string | null
    /** The session's day (`YYYY-MM-DD`): the group's members of that day are told. */
    readonly day: string
    /** The session as it was, since it is gone when its notices are written. */
    readonly title: string
    readonly start: string
  }

export interface NoticeRule {
  readonly kind: NoticeKind
  readonly audience: NoticeAudience
}

const idIn = (data: Readonly<Record<string, unknown>>, field: string): number | undefined =>
  typeof data[field] === "number" && Number.isSafeInteger(data[field]) ? data[field] : undefined

/** Whether a `sessionChanged` moved the session or changed its length: what its invitees act on (decision 0284). */
const movedOrResized = (data: Readonly<Record<string, unknown>>): boolean =>
  data["creneau"] !== data["previousCreneau"] || data["duree"] !== data["previousDuree"]

const invitees: NoticeAudience = { _tag: "invitees" }

/**
 * The rule for one event, or none. Takes the type as a plain string, as the outbox stores it.
 * `reminder` comes from no event: the notices' scheduler renders it for the invitees who have not
 * replied.
 */
export const noticeRuleFor = (
  event: { readonly type: string; readonly sessionId: number | null; readonly data: Readonly<Record<string, unknown>> }
): NoticeRule | undefined => {
  switch (event.type) {
    case "promotion": {
      const athleteId = idIn(event.data, "athleteId")
      return athleteId === undefined
        ? undefined
        : { kind: "promoted", audience: { _tag: "athletes", athleteIds: [athleteId] } }
    }
    case "sessionCreated":
      // A series' occurrences write no sessionCreated: the series invites once (decision 0282).
      return event.sessionId === null ? undefined : { kind: "invitation", audience: invitees }
    case "seriesCreated": {
      const seriesId = idIn(event.data, "seriesId")
      return seriesId === undefined ? undefined : { kind: "invitation", audience: { _tag: "seriesInvitees", seriesId } }
    }
    case "sessionChanged":
      return event.sessionId === null || !movedOrResized(event.data)
        ? undefined
        : { kind: "sessionChanged", audience: invitees }
    case "sessionCancelled": {
      // The session is deleted in the event's transaction: who it invited comes with the event.
      const start = event.data["creneau"]
      if (event.sessionId === null || typeof start !== "string") return undefined
      const athleteIds = Array.isArray(event.data["athleteIds"])
        ? event.data["athleteIds"].filter((id): id is number => typeof id === "number" && Number.isSafeInteger(id))
        : []
      const groupe = typeof event.data["groupe"] === "string" ? event.data["groupe"] : null
      const title = typeof event.data["name"] === "string" ? event.data["name"] : ""
      return {
        kind: "sessionCancelled",
        audience: { _tag: "formerInvitees", athleteIds, groupe, day: start.slice(0, 10), title, start }
      }
    }
    default:
      return undefined
  }
}

/** One notice per event and person: the unique key every store writes, so a replay inserts nothing. */
export const noticeDedupeKey = (eventId: number | string, userId: number | string): string => `${eventId}:${userId}`

/** `<notice-<id>@<host>>`: the same on every attempt, so a receiver can drop a resend after a crash. */
export const noticeMessageId = (noticeId: number | string, host: string): string => `<notice-${noticeId}@${host}>`
