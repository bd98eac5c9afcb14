import { Context } from "effect"

/**
 * Whether notices are queued at all: true exactly when mail is on (SMTP_URL set). Off, the outbox
 * writes no notice, so turning mail on later does not send notices of old events (decision 0277).
 * Read by the stores at each write, from the program's context (the server sets it from its
 * configuration); off by default, as mail is.
 */
export interface NoticeSettings {
  readonly queueNotices: boolean
}

export const NoticeSettings = Context.Reference<NoticeSettings>("@club/core/NoticeSettings", {
  defaultValue: () => ({ queueNotices: false })
})
