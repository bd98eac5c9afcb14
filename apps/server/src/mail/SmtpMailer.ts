import { MailSendError, Mailer } from "@club/core"
import { Effect, Layer, Redacted } from "effect"
import { createTransport } from "nodemailer"

/** SMTP_URL, SMTP_FROM, SMTP_REPLY_TO (docs/CONFIGURATION.md); mail is off when SMTP_URL is unset. */
export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…`; redacted because it may carry the relay's password. */
  readonly url: Redacted.Redacted<string>
  readonly from: string
  readonly replyTo: string | undefined
  /** Bounds one conversation with the relay, so a hung relay cannot hold a notice's lease forever. */
  readonly timeoutMs: number
}

const responseCode = (error: unknown): number | undefined =>
  typeof error === "object" && error !== null && "responseCode" in error && typeof error.responseCode === "number"
    ? error.responseCode
    : undefined

/**
 * The Mailer over nodemailer's SMTP transport. One pooled transport per process; a send resolves once
 * the relay has answered 250 to the message's data, which is where SMTP's own guarantee ends.
 */
export const layer = (settings: SmtpSettings): Layer.Layer<Mailer> =>
  Layer.effect(
    Mailer,
    Effect.acquireRelease(
      Effect.sync(() =>
        createTransport({
          url: Redacted.value(settings.url),
          connectionTimeout: settings.timeoutMs,
          greetingTimeout: settings.timeoutMs,
          socketTimeout: settings.timeoutMs
        })
      ),
      (transport) => Effect.sync(() => transport.close())
    ).pipe(
      Effect.map((transport) =>
        Mailer.of({
          send: (message) =>
            Effect.tryPromise({
              try: () =>
                transport.sendMail({
                  from: settings.from,
                  ...(settings.replyTo === undefined ? {} : { replyTo: settings.replyTo }),
                  to: message.to,
                  subject: message.subject,
                  text: message.text,
                  html: message.html,
                  headers: { ...message.headers },
                  messageId: message.messageId
                }),
              catch: (error) => {
                const code = responseCode(error)
                // 5xx is the relay's final word on this message; 4xx and network failures may pass later.
                return new MailSendError({
                  message: error instanceof Error ? error.message : String(error),
                  permanent: code !== undefined && code >= 500 && code < 600
                })
              }
            }).pipe(
              // nodemailer's socket timeout is per idle read and a relay that trickles bytes resets it:
              // the whole send gets one bound too. The abandoned connection ends with its socket timeout.
              Effect.timeoutOrElse({
                duration: settings.timeoutMs * 3,
                orElse: () =>
                  Effect.fail(new MailSendError({ message: "the SMTP relay did not answer in time", permanent: false }))
              }),
              Effect.asVoid,
              Effect.withSpan("Mailer.send")
            )
        })
      )
    )
  )
