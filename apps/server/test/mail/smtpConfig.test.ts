import { assert, describe, it } from "@effect/vitest"
import { NoticeSettings } from "@club/core"
import { ConfigProvider, Effect, Layer, Option, Redacted } from "effect"
import { AppConfig, appConfig } from "../../src/AppConfig.ts"
import { NoticeSettingsFromConfig } from "../../src/notices/NoticeDelivery.ts"

const parse = (env: Record<string, string>) =>
  appConfig.parse(ConfigProvider.fromUnknown({ DATA_DIR: "memory://", ...env }))

describe("SMTP configuration", () => {
  it.effect("mail is off when SMTP_URL is unset or empty", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone((yield* parse({})).mail))
      assert.isTrue(Option.isNone((yield* parse({ SMTP_URL: "", SMTP_FROM: "club@example.test" })).mail))
    }))

  it.effect("reads the relay, sender, reply-to and timeout", () =>
    Effect.gen(function*() {
      const { mail } = yield* parse({
        SMTP_URL: "smtps://user:secret@mail.example.test:465",
        SMTP_FROM: "Club <club@example.test>",
        SMTP_REPLY_TO: "office@example.test",
        SMTP_TIMEOUT_SECONDS: "7"
      })
      const settings = Option.getOrThrow(mail)
      assert.strictEqual(Redacted.value(settings.url), "smtps://user:secret@mail.example.test:465")
      assert.strictEqual(settings.from, "Club <club@example.test>")
      assert.strictEqual(settings.replyTo, "office@example.test")
      assert.strictEqual(settings.timeoutMs, 7000)
    }))

  it.effect("refuses a relay without a sender, or a URL of another scheme, without echoing the URL", () =>
    Effect.gen(function*() {
      const noSender = yield* Effect.flip(parse({ SMTP_URL: "smtp://127.0.0.1:25" }))
      assert.include(String(noSender), "SMTP_FROM")
      const wrong = yield* Effect.flip(parse({ SMTP_URL: "http://user:secret@x", SMTP_FROM: "a@b.test" }))
      assert.include(String(wrong), "SMTP_URL")
      assert.notInclude(String(wrong), "secret")
    }))

  it.effect("notices are in the club's language, French unless CLUB_LANGUAGE says en; another is refused", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* parse({})).clubLanguage, "fr")
      assert.strictEqual((yield* parse({ CLUB_LANGUAGE: "en" })).clubLanguage, "en")
      const wrong = yield* Effect.flip(parse({ CLUB_LANGUAGE: "de" }))
      assert.include(String(wrong), "CLUB_LANGUAGE")
    }))

  it.effect("PUBLIC_URL: unset is none, an http(s) URL is kept without its trailing slash, another is refused", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone((yield* parse({})).publicUrl))
      assert.deepStrictEqual(
        (yield* parse({ PUBLIC_URL: "https://club.example/app/" })).publicUrl,
        Option.some("https://club.example/app")
      )
      const wrong = yield* Effect.flip(parse({ PUBLIC_URL: "ftp://club.example" }))
      assert.include(String(wrong), "PUBLIC_URL")
    }))

  it.effect("notices are queued exactly when mail is on", () =>
    Effect.gen(function*() {
      const queued = (env: Record<string, string>) =>
        Effect.gen(function*() {
          return (yield* NoticeSettings).queueNotices
        }).pipe(
          Effect.provide(NoticeSettingsFromConfig),
          Effect.provide(Layer.effect(AppConfig, Effect.map(parse(env), AppConfig.of)))
        )
      assert.isFalse(yield* queued({}))
      assert.isTrue(yield* queued({ SMTP_URL: "smtp://127.0.0.1:25", SMTP_FROM: "club@example.test" }))
    }))
})
