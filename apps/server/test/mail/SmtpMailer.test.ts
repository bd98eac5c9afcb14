import { type MailMessage, Mailer } from "@club/core"
import { type SmtpTestServer, startSmtpServer } from "@club/test-support"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import { layer } from "../../src/mail/SmtpMailer.ts"

let smtp: SmtpTestServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp.close())

const mailer = (timeoutMs = 5_000) =>
  layer({ url: Redacted.make(smtp.url), from: "Club <club@example.test>", replyTo: "coach@example.test", timeoutMs })

const message = (id: string): MailMessage => ({
  to: "ana@example.test",
  subject: "Vous êtes inscrite",
  text: "Bonjour Ana,\nvous passez de la liste d'attente à la séance.",
  html: `<p>Bonjour Ana &amp; co,</p><p><a href="https://club.example/s/1?a=1&amp;b=2">La séance</a></p>`,
  headers: { "List-Unsubscribe": "<https://club.example/u/t>" },
  messageId: `<notice-${id}@club.example>`
})

const send = (m: MailMessage, timeoutMs?: number) =>
  Effect.gen(function*() {
    const port = yield* Mailer
    return yield* port.send(m)
  }).pipe(Effect.provide(mailer(timeoutMs)))

describe("SmtpMailer over a real SMTP server", () => {
  it.effect("delivers one message with its Message-ID, headers, text and HTML parts", () =>
    Effect.gen(function*() {
      smtp.behave({ _tag: "accept" })
      const before = smtp.count()
      yield* send(message("a1"))
      assert.strictEqual(smtp.count(), before + 1)
      const got = smtp.received.at(-1)!
      assert.strictEqual(got.messageId, "<notice-a1@club.example>")
      assert.deepStrictEqual(got.envelopeTo, ["ana@example.test"])
      assert.strictEqual(got.subject, "Vous êtes inscrite")
      assert.include(got.headers.get("from") ?? "", "club@example.test")
      assert.include(got.headers.get("reply-to") ?? "", "coach@example.test")
      assert.strictEqual(got.headers.get("list-unsubscribe"), "<https://club.example/u/t>")
      assert.include(got.text ?? "", "liste d'attente")
      assert.include(got.html ?? "", "Bonjour Ana &amp; co")
      assert.deepStrictEqual(got.links, ["https://club.example/s/1?a=1&b=2"])
    }))

  it.effect("a 5xx answer is a permanent failure, a 4xx a transient one, and nothing is counted", () =>
    Effect.gen(function*() {
      const before = smtp.count()
      smtp.behave({ _tag: "fail", code: 554 })
      const permanent = yield* Effect.flip(send(message("p1")))
      assert.strictEqual(permanent.permanent, true)
      smtp.behave({ _tag: "fail", code: 451 })
      const transient = yield* Effect.flip(send(message("t1")))
      assert.strictEqual(transient.permanent, false)
      smtp.behave({ _tag: "accept" })
      assert.strictEqual(smtp.count(), before)
    }))

  it.live(
    "a relay that never answers fails the send after the timeout instead of holding it",
    () =>
      Effect.gen(function*() {
        const before = smtp.count()
        const started = smtp.dataStarted()
        smtp.behave({ _tag: "hang" })
        const exit = yield* Effect.exit(send(message("h1"), 500))
        smtp.behave({ _tag: "accept" })
        assert.isTrue(Exit.isFailure(exit))
        assert.strictEqual(smtp.dataStarted(), started + 1)
        assert.strictEqual(smtp.count(), before)
      }),
    10_000
  )
})
