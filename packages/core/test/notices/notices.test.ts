import { describe, expect, it } from "@effect/vitest"
import { type NoticeFacts, noticeDedupeKey, noticeMessageId, noticeRuleFor, renderNotice } from "../../src/index.ts"

describe("which events become notices", () => {
  it("a promotion tells its athlete (and through the stores, its user and guardians)", () => {
    expect(noticeRuleFor({ type: "promotion", sessionId: 4, data: { athleteId: 9 } })).toEqual({
      kind: "promoted",
      audience: { _tag: "athletes", athleteIds: [9] }
    })
  })

  it("a cancelled session tells every invitee, and maps before the event type exists on this branch", () => {
    expect(noticeRuleFor({ type: "sessionCancelled", sessionId: 4, data: { creneau: "x" } })).toEqual({
      kind: "sessionCancelled",
      audience: { _tag: "invitees" }
    })
  })

  it("other events, and a malformed promotion, tell nobody", () => {
    for (const type of ["reply", "cancellation", "presence", "membershipStarted", "sessionChanged", "userCreated"]) {
      expect(noticeRuleFor({ type, sessionId: 4, data: { athleteId: 9 } })).toBeUndefined()
    }
    expect(noticeRuleFor({ type: "promotion", sessionId: 4, data: { athleteId: "9" } })).toBeUndefined()
    expect(noticeRuleFor({ type: "sessionCancelled", sessionId: null, data: {} })).toBeUndefined()
  })

  it("the dedupe key is one per event and person; the Message-ID one per notice", () => {
    expect(noticeDedupeKey(12, 3)).toBe("12:3")
    expect(noticeDedupeKey(12, 3)).not.toBe(noticeDedupeKey(1, 23))
    expect(noticeMessageId(77, "club.example")).toBe("<notice-77@club.example>")
  })
})

const facts = (overrides: Partial<NoticeFacts>): NoticeFacts => ({
  kind: "promoted",
  language: "fr",
  timeZone: "Europe/Paris",
  recipientName: "Ana",
  athleteName: "Léo",
  forGuardian: false,
  sessionTitle: "Piste",
  // 18:30 in Paris (UTC+1 in winter), 17:30 UTC.
  startsAt: new Date("2026-12-02T17:30:00Z"),
  link: "https://club.example/sessions/4?a=1&b=2",
  ...overrides
})

describe("rendering a notice", () => {
  it("in French, in the club's zone, with the apostrophe kept", () => {
    const notice = renderNotice(facts({}))
    expect(notice.subject).toBe("Vous avez une place : Piste, mercredi 2 décembre 2026 à 18:30")
    expect(notice.text).toContain("Vous passez de la liste d'attente à la séance « Piste »")
    expect(notice.text).toContain("Voir la séance : https://club.example/sessions/4?a=1&b=2")
  })

  it("in English for a guardian, naming the athlete", () => {
    const notice = renderNotice(facts({ language: "en", forGuardian: true, recipientName: "Marie" }))
    expect(notice.subject).toBe("Léo has a place: Piste, Wednesday, December 2, 2026 at 6:30 PM")
    expect(notice.text).toMatch(/^Hello Marie,\n\nLéo moves from the waiting list/u)
    expect(notice.text).toContain("See the session: https://club.example/sessions/4?a=1&b=2")
  })

  it("a cancellation in both languages", () => {
    expect(renderNotice(facts({ kind: "sessionCancelled" })).text).toContain("est annulée.")
    expect(renderNotice(facts({ kind: "sessionCancelled", language: "en", forGuardian: true })).text)
      .toContain("is cancelled (Léo's invitation).")
  })

  it("escapes every value in the HTML part and keeps the link whole", () => {
    const notice = renderNotice(facts({ recipientName: "<b>Ana</b> & \"co\"", sessionTitle: "<script>x</script>" }))
    expect(notice.html).not.toContain("<script>")
    expect(notice.html).not.toContain("<b>")
    expect(notice.html).toContain("&lt;b&gt;Ana&lt;/b&gt; &amp; &quot;co&quot;")
    expect(notice.html).toContain(`<a href="https://club.example/sessions/4?a=1&amp;b=2">Voir la séance</a>`)
    // The text part is not HTML: the name stays as typed.
    expect(notice.text).toContain("<b>Ana</b> & \"co\"")
  })
})
