import { Context, type Effect } from "effect"
import type { NoticeKind } from "./noticeRules.ts"

/** What a notice's states are; `suppressed` is a notice the recipient's preferences stopped. */
export const noticeStatuses = ["pending", "sent", "failed", "suppressed"] as const
export type NoticeStatus = (typeof noticeStatuses)[number]

/** A notice claimed for sending, with the facts its text needs, read when it is sent. */
export interface ClaimedNotice {
  readonly id: number
  readonly kind: NoticeKind
  /** This attempt's number, from 1. */
  readonly attempt: number
  readonly recipientUserId: number
  readonly recipientName: string
  readonly recipientEmail: string
  readonly athleteId: number
  readonly athleteName: string
  /** The recipient is a guardian of the athlete, not the athlete's own user. */
  readonly forGuardian: boolean
  readonly sessionId: number
  readonly sessionTitle: string
  /** The session's start, a wall-clock time at the club (`YYYY-MM-DDTHH:MM:SS`); null when it has none. */
  readonly sessionStart: string | null
  /** The athlete has replied to the session by now: a reminder written before the reply is not sent. */
  readonly athleteReplied: boolean
  /** An invitation to a whole series (its `seriesCreated`); the session is the series' first occurrence. */
  readonly forSeries: boolean
  /** A `sessionChanged` that moved the session: its start before (`YYYY-MM-DDTHH:MM:SS`); else null. */
  readonly previousStart: string | null
  /** When replies close: the session's cut-off, else its start (wall-clock); null when it has neither. */
  readonly repliesClose: string | null
}

/** How one attempt ended, as the worker settles it. */
export type NoticeOutcome =
  | { readonly _tag: "sent" }
  | { readonly _tag: "retry"; readonly error: string; readonly delayMs: number }
  | { readonly _tag: "failed"; readonly error: string }
  | { readonly _tag: "suppressed"; readonly reason: string }

/** When reminders are due (docs/notices.md "Reminders"). */
export interface ReminderTiming {
  /** How long before a session's reply cut-off its reminder is due. */
  readonly leadMs: number
  /** A reminder whose moment passed longer ago than this is dropped, never sent late. */
  readonly windowMs: number
  /** The club's zone, in which `creneau` and the cut-off are wall-clock times. */
  readonly timeZone: string
  /** At most this many reminders written by one call. */
  readonly limit: number
}

/**
 * The notices written by the outbox and their sending (issue 42). Every time is the database's
 * clock, so that instances whose clocks differ, or a host whose clock jumps, agree on what is due.
 */
export class NoticeRepository extends Context.Service<NoticeRepository, {
  /**
   * Claims up to `limit` due pending notices no live lease holds, skipping those another instance
   * is claiming (`SKIP LOCKED`), and leases them to `owner` for `leaseMs`.
   */
  claim(owner: string, leaseMs: number, limit: number): Effect.Effect<ReadonlyArray<ClaimedNotice>>
  /** Settles `owner`'s attempt; nothing when its lease was taken over meanwhile. */
  settle(owner: string, id: number, outcome: NoticeOutcome): Effect.Effect<void>
  /** Gives the lease back without counting the attempt (a stop before the send began). */
  release(owner: string, id: number): Effect.Effect<void>
  /** Writes the reminders now due (once each: `reminder:<session>:<user>`); answers how many. */
  writeReminders(timing: ReminderTiming): Effect.Effect<number>
  /**
   * Writes the notices of the promotions PostgreSQL's refill trigger wrote (an athlete taken out of a
   * full session frees a place: migration 0018), which no store's outbox write saw: those of the last
   * `windowMs` whose notices are missing, at most `limit`, once each by their dedupe key. Answers how
   * many.
   */
  writeMissedPromotions(windowMs: number, limit: number): Effect.Effect<number>
}>()("@club/core/NoticeRepository") {}
