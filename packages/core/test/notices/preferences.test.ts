import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import {
  defaultNoticePreference,
  noticeDelivery,
  NoticePreference,
  NoticePreferenceInput,
  noticeKinds,
  noticeLanguage,
  noticeWanted,
  renderNotice,
  unsubscribeHeaders,
  unsubscribeLink,
  UnsubscribeSeal,
  unsubscribeUrl,
  type UserId
} from "../../src/index.ts"
import { InMemoryUnsubscribeSeal } from "../../src/testing.ts"

const user = 7 as UserId

describe("what a user's preferences let through", () => {
  it("the defaults want every kind, in the club's language", () => {
    const defaults = defaultNoticePreference(user)
    for (const kind of noticeKinds) expect(noticeWanted(defaults, kind)).toBe(true)
    expect(noticeLanguage(defaults, "fr")).toBe("fr")
    expect(noticeLanguage(defaults, "en")).toBe("en")
  })

  it("a muted kind is not wanted, the others are; email off wants none; a chosen language wins", () => {
    const muted = new NoticePreference({ userId: user, language: "en", emailEnabled: true, mutedKinds: ["reminder"] })
    expect(noticeKinds.filter((kind) => noticeWanted(muted, kind))).toEqual(
      noticeKinds.filter((kind) => kind !== "reminder")
    )
    expect(noticeLanguage(muted, "fr")).toBe("en")
    const off = new NoticePreference({ ...muted, emailEnabled: false, mutedKinds: [] })
    for (const kind of noticeKinds) expect(noticeWanted(off, kind)).toBe(false)
  })

  it("the sender's decision: suppress what is not wanted, else send in the user's language", () => {
    const muted = new NoticePreference({ userId: user, language: "en", emailEnabled: true, mutedKinds: ["reminder"] })
    expect(noticeDelivery(muted, "reminder", "fr")).toEqual({ _tag: "suppress" })
    expect(noticeDelivery(muted, "promoted", "fr")).toEqual({ _tag: "send", language: "en" })
    expect(noticeDelivery(defaultNoticePreference(user), "promoted", "fr")).toEqual({ _tag: "send", language: "fr" })
    expect(noticeDelivery(new NoticePreference({ ...muted, emailEnabled: false }), "promoted", "fr")).toEqual({
      _tag: "suppress"
    })
  })

  it("the input refuses an unknown kind, a kind twice, and an unknown language", () => {
    const decode = Schema.decodeUnknownExit(NoticePreferenceInput)
    const valid = { language: null, emailEnabled: true, mutedKinds: ["promoted", "invitation"] }
    expect(decode(valid)._tag).toBe("Success")
    expect(decode({ ...valid, mutedKinds: ["gossip"] })._tag).toBe("Failure")
    expect(decode({ ...valid, mutedKinds: ["promoted", "promoted"] })._tag).toBe("Failure")
    expect(decode({ ...valid, language: "de" })._tag).toBe("Failure")
  })

  it("every kind has its text in both languages", () => {
    for (const kind of noticeKinds) {
      for (const language of ["fr", "en"] as const) {
        const rendered = renderNotice({
          kind,
          language,
          timeZone: "Europe/Paris",
          recipientName: "Ana",
          athleteName: "Léo",
          forGuardian: true,
          sessionTitle: "U12",
          startsAt: new Date("2027-01-09T09:00:00Z"),
          link: "https://club.example/s/1"
        })
        expect(rendered.subject).toContain("U12")
        expect(rendered.text).toContain("Léo")
      }
    }
  })
})

describe("one-click unsubscribe links", () => {
  it("the link is the base URL's /notices/unsubscribe with the token, whatever trailing slash", () => {
    expect(unsubscribeUrl("https://club.example", "abc_-1")).toBe(
      "https://club.example/notices/unsubscribe?token=abc_-1"
    )
    expect(unsubscribeUrl("https://club.example/api/", "abc")).toBe(
      "https://club.example/api/notices/unsubscribe?token=abc"
    )
  })

  it("the headers are RFC 8058's, the link in angle brackets", () => {
    expect(unsubscribeHeaders("https://club.example/notices/unsubscribe?token=abc")).toEqual({
      "List-Unsubscribe": "<https://club.example/notices/unsubscribe?token=abc>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"
    })
  })

  it.effect("a link built for a user and a kind opens to them through the seal", () =>
    Effect.gen(function*() {
      const link = yield* unsubscribeLink("https://club.example", { userId: user, kind: "reminder" })
      expect(link).toMatch(/^https:\/\/club\.example\/notices\/unsubscribe\?token=[A-Za-z0-9_-]+$/u)
      const token = link.slice(link.indexOf("=") + 1)
      const seal = yield* UnsubscribeSeal
      expect(seal.open(token)).toEqual(Option.some({ userId: user, kind: "reminder" }))
      expect(seal.open(`${token}x`)).toEqual(Option.none())
    }).pipe(Effect.provide(InMemoryUnsubscribeSeal)))
})
