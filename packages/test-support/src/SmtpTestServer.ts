import { type AddressObject, type ParsedMail, simpleParser } from "mailparser"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/** One message the server accepted, parsed whole. */
export interface ReceivedMail {
  readonly envelopeTo: ReadonlyArray<string>
  readonly messageId: string | undefined
  readonly subject: string | undefined
  readonly to: ReadonlyArray<string>
  /** Header names lower-cased; a structured header (address, date) as its raw line. */
  readonly headers: ReadonlyMap<string, string>
  readonly text: string | undefined
  readonly html: string | undefined
  /** Every `href` of the HTML part, in order. */
  readonly links: ReadonlyArray<string>
}

/**
 * How the server answers the next messages: `accept` them, `fail` each with an SMTP code (4xx
 * transient, 5xx permanent) or `hang` (never answer the data, as a stalled relay does).
 */
export type SmtpBehaviour = { readonly _tag: "accept" } | { readonly _tag: "fail"; readonly code: number } | {
  readonly _tag: "hang"
}

/** A real SMTP server on a loopback port, for the mailer's and the notice worker's tests. */
export interface SmtpTestServer {
  readonly port: number
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string
  readonly received: ReadonlyArray<ReceivedMail>
  /** Messages accepted so far (the count the exactly-once tests read). */
  readonly count: () => number
  /** Message bodies whose DATA has started, accepted or not: shows a send is in flight. */
  readonly dataStarted: () => number
  readonly behave: (behaviour: SmtpBehaviour) => void
  readonly close: () => Promise<void>
}

const addresses = (value: AddressObject | ReadonlyArray<AddressObject> | undefined): ReadonlyArray<string> =>
  (value === undefined ? [] : Array.isArray(value) ? value as ReadonlyArray<AddressObject> : [value as AddressObject])
    .flatMap((object) => object.value.map((entry): string => entry.address ?? ""))

const hrefs = (html: string): ReadonlyArray<string> =>
  [...html.matchAll(/href\s*=\s*"([^"]*)"/giu)].map((match) => (match[1] ?? "").replaceAll("&amp;", "&"))

const headerLines = (mail: ParsedMail): ReadonlyMap<string, string> =>
  new Map(mail.headerLines.map((line) => [line.key, line.line.slice(line.line.indexOf(":") + 1).trim()]))

/** Starts the server; `close` ends it and every open connection (a hung one included). */
export const startSmtpServer = async (): Promise<SmtpTestServer> => {
  const received: Array<ReceivedMail> = []
  let behaviour: SmtpBehaviour = { _tag: "accept" }
  let started = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      started += 1
      const now = behaviour
      if (now._tag === "hang") {
        // Read the body so the client waits on our answer, and never give one.
        stream.resume()
        return
      }
      simpleParser(stream).then((mail) => {
        if (now._tag === "fail") {
          const error = Object.assign(new Error(`refused for the test (${now.code})`), { responseCode: now.code })
          callback(error)
          return
        }
        received.push({
          envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          messageId: mail.messageId,
          subject: mail.subject,
          to: addresses(mail.to),
          headers: headerLines(mail),
          text: mail.text,
          html: typeof mail.html === "string" ? mail.html : undefined,
          links: typeof mail.html === "string" ? hrefs(mail.html) : []
        })
        callback()
      }, (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    count: () => received.length,
    dataStarted: () => started,
    behave: (next) => {
      behaviour = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        // smtp-server waits for open connections; a hung one must be cut, not awaited.
        for (const connection of server.connections) connection.close()
        server.close(() => resolve())
      })
  }
}
