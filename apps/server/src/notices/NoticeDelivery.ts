import {
  type ClaimedNotice,
  instantOf,
  type LocalDateTime,
  Mailer,
  type NoticeOutcome,
  NoticePreferenceRepository,
  NoticeRepository,
  NoticeSettings,
  noticeMessageId,
  renderNotice,
  UnsubscribeSeal
} from "@club/core"
import { Cause, Config, Effect, Exit, Layer, Option, Semaphore } from "effect"
import { randomUUID } from "node:crypto"
import { hostname } from "node:os"
import { AppConfig } from "../AppConfig.ts"
import * as SmtpMailer from "../mail/SmtpMailer.ts"
import { decideDelivery, publicUrlOf } from "./decideDelivery.ts"
import { positiveSetting } from "../shared/positiveSetting.ts"

/** The NOTICE_* variables (docs/CONFIGURATION.md). */
export interface NoticeWorkerSettings {
  /** The delay before the second attempt after a transient failure; each later one doubles it, up to the max. */
  readonly retryBaseMs: number
  readonly retryMaxMs: number
  /** After this many attempts a transiently failing notice is given up (failed). */
  readonly maxAttempts: number
  /** How often an idle worker looks for due notices. */
  readonly pollMs: number
  /** How many notices this instance sends at once. */
  readonly concurrency: number
  /** How long before a session's reply cut-off its reminder is due. */
  readonly reminderLeadMinutes: number
  /** A reminder whose moment passed longer ago than this (a server down meanwhile) is dropped. */
  readonly reminderWindowMinutes: number
  /** How often each instance writes the reminders due. */
  readonly reminderPollMs: number
  /** At most this many reminders written per look; a backlog takes several. */
  readonly reminderBatch: number
}

const positive = positiveSetting

export const noticeWorkerSettings: Config.Config<NoticeWorkerSettings> = Config.all({
  retryBaseMs: positive("NOTICE_RETRY_BASE_MS", 30_000),
  retryMaxMs: positive("NOTICE_RETRY_MAX_MS", 60 * 60 * 1000),
  maxAttempts: positive("NOTICE_MAX_ATTEMPTS", 10),
  pollMs: positive("NOTICE_POLL_MS", 1000),
  concurrency: positive("NOTICE_CONCURRENCY", 4),
  reminderLeadMinutes: positive("NOTICE_REMINDER_LEAD_MINUTES", 48 * 60),
  reminderWindowMinutes: positive("NOTICE_REMINDER_WINDOW_MINUTES", 6 * 60),
  reminderPollMs: positive("NOTICE_REMINDER_POLL_MS", 60_000),
  reminderBatch: positive("NOTICE_REMINDER_BATCH", 500)
})

/** The delay before attempt `attempt + 1`: exponential from the base, capped. */
export const noticeRetryDelayMs = (settings: NoticeWorkerSettings, attempt: number) =>
  Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(attempt - 1, 30))

/**
 * A claim's lease: longer than a whole send (the mailer bounds one by three times SMTP_TIMEOUT), with
 * room for the decision and the settle, so no other instance claims a notice whose send may still
 * reach the relay.
 */
export const noticeLeaseMs = (smtp: SmtpMailer.SmtpSettings) => smtp.timeoutMs * 3 * 2 + 1000

const describe = (cause: Cause.Cause<unknown>) => Cause.pretty(cause).split("\n", 1)[0] ?? "failed"

/**
 * Sends one claimed notice and settles it. Uninterruptible: a stop waits for a send begun (bounded by
 * the mailer) and its settle, so a stopping instance never leaves a message accepted by the relay and
 * its notice unmarked; only a kill between the relay's 250 and the mark does (docs/notices.md).
 */
const deliver = (owner: string, claimed: ClaimedNotice, settings: NoticeWorkerSettings) =>
  Effect.gen(function*() {
    const notices = yield* NoticeRepository
    const mailer = yield* Mailer
    const config = yield* AppConfig
    const settle = (outcome: NoticeOutcome) => notices.settle(owner, claimed.id, outcome)
    const decision = yield* decideDelivery(claimed)
    if (decision._tag === "suppress") return yield* settle({ _tag: "suppressed", reason: decision.reason })
    if (claimed.kind === "reminder" && claimed.athleteReplied) {
      return yield* settle({ _tag: "suppressed", reason: "the athlete replied after the reminder was written" })
    }
    if (claimed.sessionStart === null) return yield* settle({ _tag: "failed", error: "the session has no time" })
    const publicUrl = publicUrlOf(config)
    const timeZone = config.schedule.timeZone
    const rendered = renderNotice({
      kind: claimed.kind,
      language: decision.language,
      timeZone,
      recipientName: claimed.recipientName,
      athleteName: claimed.athleteName,
      forGuardian: claimed.forGuardian,
      sessionTitle: claimed.sessionTitle,
      startsAt: new Date(instantOf(timeZone, claimed.sessionStart as LocalDateTime)),
      ...(claimed.forSeries ? { forSeries: true } : {}),
      ...(claimed.previousStart === null
        ? {}
        : { previousStartsAt: new Date(instantOf(timeZone, claimed.previousStart as LocalDateTime)) }),
      ...(claimed.repliesClose === null
        ? {}
        : { repliesCloseAt: new Date(instantOf(timeZone, claimed.repliesClose as LocalDateTime)) }),
      link: `${publicUrl}/sessions/${claimed.sessionId}`
    })
    const sent = yield* Effect.exit(mailer.send({
      to: claimed.recipientEmail,
      ...rendered,
      headers: decision.headers,
      messageId: noticeMessageId(claimed.id, new URL(publicUrl).hostname)
    }))
    if (Exit.isSuccess(sent)) return yield* settle({ _tag: "sent" })
    const error = Cause.findErrorOption(sent.cause)
    const permanent = Option.isSome(error) && error.value.permanent
    const message = Option.isSome(error) ? error.value.message : describe(sent.cause)
    const final = permanent || claimed.attempt >= settings.maxAttempts
    yield* settle(
      final
        ? { _tag: "failed", error: message }
        : { _tag: "retry", error: message, delayMs: noticeRetryDelayMs(settings, claimed.attempt) }
    )
    yield* Effect.logWarning(
      final ? "A notice could not be sent; it is given up" : "A notice could not be sent; it will be retried"
    ).pipe(Effect.annotateLogs({ noticeId: claimed.id, attempt: claimed.attempt, permanent, error: message }))
  }).pipe(Effect.uninterruptible, Effect.withSpan("NoticeDelivery.deliver"))

/**
 * The sender of one instance: claims one due notice per free slot (`concurrency`) and sends each in
 * a fiber of its own. A failure of the database is logged and the loop goes on: an unsettled claim
 * is claimed again when its lease ends.
 */
const sender = (owner: string, settings: NoticeWorkerSettings, leaseMs: number) =>
  Effect.gen(function*() {
    const notices = yield* NoticeRepository
    const slots = yield* Semaphore.make(settings.concurrency)
    const troubled = (cause: Cause.Cause<unknown>) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.logWarning("The notice worker could not claim or settle a notice; it tries again", cause).pipe(
          Effect.andThen(Effect.sleep(settings.pollMs))
        )
    const step = Effect.gen(function*() {
      yield* slots.take(1)
      const claimed = yield* notices.claim(owner, leaseMs, 1).pipe(Effect.onError(() => slots.release(1)))
      const notice = claimed[0]
      if (notice === undefined) {
        yield* slots.release(1)
        return yield* Effect.sleep(settings.pollMs)
      }
      yield* Effect.forkChild(
        deliver(owner, notice, settings).pipe(Effect.catchCause(troubled), Effect.ensuring(slots.release(1)))
      )
    }).pipe(Effect.catchCause(troubled))
    return yield* Effect.forever(step)
  })

/**
 * The reminder scheduler of one instance (every instance runs one): writes the reminders due, at
 * every tick, on the database's clock; the dedupe key makes a reminder written by two instances at
 * once one notice. A full batch is followed at once by the next. The same tick writes the notices of
 * the promotions the database's refill trigger wrote, which no outbox write saw (docs/notices.md).
 */
const reminders = (settings: NoticeWorkerSettings) =>
  Effect.gen(function*() {
    const notices = yield* NoticeRepository
    const { timeZone } = (yield* AppConfig).schedule
    const timing = {
      leadMs: settings.reminderLeadMinutes * 60_000,
      windowMs: settings.reminderWindowMinutes * 60_000,
      timeZone,
      limit: settings.reminderBatch
    }
    const tick = Effect.all([
      notices.writeReminders(timing),
      notices.writeMissedPromotions(timing.windowMs, timing.limit)
    ]).pipe(
      Effect.flatMap(([reminded, promoted]) =>
        reminded >= timing.limit || promoted >= timing.limit ? Effect.void : Effect.sleep(settings.reminderPollMs)
      ),
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logWarning("The reminder scheduler could not write the reminders due; it tries again", cause).pipe(
            Effect.andThen(Effect.sleep(settings.reminderPollMs))
          )
      )
    )
    return yield* Effect.forever(tick)
  })

/**
 * Notices by email (issue 42): when mail is on, the sender and the reminder scheduler, forked for as
 * long as the server runs, claiming with an owner of their own so that a lease names one instance;
 * when it is off, nothing (and nothing is queued: `NoticeSettingsFromConfig`).
 */
export const NoticeDeliveryLive: Layer.Layer<
  never,
  Config.ConfigError,
  AppConfig | NoticeRepository | NoticePreferenceRepository | UnsubscribeSeal
> = Layer.unwrap(
  AppConfig.useSync((config) =>
    Option.match(config.mail, {
      onNone: () => Layer.empty,
      onSome: (smtp) =>
        Layer.effectDiscard(Effect.gen(function*() {
          const settings = yield* noticeWorkerSettings
          const owner = `${hostname()}/${process.pid}/${randomUUID()}`
          yield* Effect.forkScoped(sender(owner, settings, noticeLeaseMs(smtp)))
          yield* Effect.forkScoped(reminders(settings))
        })).pipe(Layer.provide(SmtpMailer.layer(smtp)))
    })
  )
)

/** Notices are queued by the outbox exactly when mail is on (decision 0277). */
export const NoticeSettingsFromConfig: Layer.Layer<never, never, AppConfig> = Layer.effect(
  NoticeSettings,
  AppConfig.useSync((config) => ({ queueNotices: Option.isSome(config.mail) }))
)
