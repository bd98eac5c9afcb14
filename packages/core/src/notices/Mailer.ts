import { Context, Data, type Effect } from "effect"

/** One message to one person; `messageId` is stable per notice so a receiver can drop a resend. */
export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  /** Extra headers, e.g. `List-Unsubscribe`; never `From`, `To`, `Subject` or `Message-ID`. */
  readonly headers: Readonly<Record<string, string>>
  /** `<notice-<id>@<host>>`, angle brackets included. */
  readonly messageId: string
}

/**
 * The relay refused or could not take the message. `permanent` is a 5xx answer (a bad address):
 * retrying cannot help, so the worker gives the notice up at once instead of backing off.
 */
export class MailSendError extends Data.TaggedError("MailSendError")<{
  readonly message: string
  readonly permanent: boolean
}> {}

/** The outgoing mail port: sends one message, succeeding once the relay has accepted it. */
export class Mailer extends Context.Service<Mailer, {
  send(message: MailMessage): Effect.Effect<void, MailSendError>
}>()("@club/core/Mailer") {}
