import { describe, expect, it } from "@effect/vitest"
import { type NoticeFacts, noticeDedupeKey, noticeMessageId, noticeRuleFor, renderNotice } from "../../src/index.ts"

describe("which events become notices", () => {
  it("a promotion tells its athlete (and through the stores, its user and guardians)", () => {
    expect(noticeRuleFor({ type: "promotion", sessionId: 4, data: { athleteId: 9 } })).toEqual({
      kind: "promoted",
      audience: { _tag: "athletes", athleteIds: [9] }
    })
  })

  it("a cancelled session tells whom it invited, as its event carries them (the session is gone)", () => {
    expect(noticeRuleFor({
      type: "sessionCancelled",
      sessionId: 4,
      data: { creneau: "2026-12-02T18:30:00", name: "Piste", groupe: "U12", athleteIds: [3, 1.5, "x", 2] }
    })).toEqual({
      kind: "sessionCancelled",
      audience: {
        _tag: "formerInvitees",
        athleteIds: [3, 2],
        groupe: "U12",
        day: "2026-12-02",
        title: "Piste",
        start: "2026-12-02T18:30:00"
      }
    })
    // A session without a time has nothing to tell a date with.
    expect(noticeRuleFor({ type: "sessionCancelled", sessionId: 4, data: { creneau: null } })).toBeUndefined()
  })

  it("a session created invites its invitees; a series invites once, its own invitees (decision 0282)", () => {
    expect(noticeRuleFor({ type: "sessionCreated", sessionId: 4, data: { creneau: "2026-12-02T18:30:00" } })).toEqual({
      kind: "invitation",
      audience: { _tag: "invitees" }
    })
    expect(noticeRuleFor({ type: "seriesCreated", sessionId: null, data: { seriesId: 7 } })).toEqual({
      kind: "invitation",
      audience: { _tag: "seriesInvitees", seriesId: 7 }
    })
    expect(noticeRuleFor({ type: "seriesCreated", sessionId: null, data: {} })).toBeUndefined()
  })

  it("a session moved or resized tells its invitees; an edit of anything else tells nobody (decision 0284)", () => {
    const changed = (data: Record<string, unknown>) =>
      noticeRuleFor({
        type: "sessionChanged",
        sessionId: 4,
        data: {
          creneau: "2026-12-02T18:30:00",
          duree: 60,
          previousCreneau: "2026-12-02T18:30:00",
          previousDuree: 60,
          ...data
        }
      })
    expect(changed({ previousCreneau: "2026-12-01T18:30:00" })).toEqual({
      kind: "sessionChanged",
      audience: { _tag: "invitees" }
    })
    expect(changed({ previousDuree: 90 })).toEqual({ kind: "sessionChanged", audience: { _tag: "invitees" } })
    expect(changed({ name: "Renamed" })).toBeUndefined()
    expect(changed({})).toBeUndefined()
  })

  it("other events, and a malformed promotion, tell nobody", () => {
    for (
      const type of [
        "reply",
        "cancellation",
        "presence",
        "membershipStarted",
        "sessionChanged",
        "seriesChanged",
        "seriesCancelled",
        "activityCreated",
        "userCreated",
        "userDeleted"
      ]
    ) {
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

  it("an invitation to a session and to a series, in both languages, for an athlete and a guardian", () => {
    expect(renderNotice(facts({ kind: "invitation" })).text).toContain(
      "Vous êtes invité(e) à la séance « Piste » du mercredi 2 décembre 2026 à 18:30. Merci de répondre"
    )
    expect(renderNotice(facts({ kind: "invitation", forSeries: true, language: "en", forGuardian: true })).text)
      .toContain("Léo is invited to the series \"Piste\", starting on Wednesday, December 2, 2026 at 6:30 PM.")
    expect(renderNotice(facts({ kind: "invitation", language: "en" })).subject).toBe(
      "Invitation: Piste, Wednesday, December 2, 2026 at 6:30 PM"
    )
  })

  it("a session moved shows its former and new start; one resized only its start", () => {
    const moved = facts({ kind: "sessionChanged", previousStartsAt: new Date("2026-12-01T17:30:00Z") })
    expect(renderNotice(moved).text).toContain(
      "La séance « Piste » du mardi 1 décembre 2026 à 18:30 est déplacée au mercredi 2 décembre 2026 à 18:30."
    )
    expect(renderNotice({ ...moved, language: "en", forGuardian: true }).text).toContain(
      "on Tuesday, December 1, 2026 at 6:30 PM moves to Wednesday, December 2, 2026 at 6:30 PM (Léo's invitation)."
    )
    expect(renderNotice(facts({ kind: "sessionChanged", previousStartsAt: facts({}).startsAt, language: "en" })).text)
      .toContain("The session \"Piste\" on Wednesday, December 2, 2026 at 6:30 PM changes its length.")
  })

  it("a reminder says no reply came and when replies close, in the club's zone", () => {
    const reminder = facts({ kind: "reminder", repliesCloseAt: new Date("2026-12-01T17:00:00Z") })
    expect(renderNotice(reminder).text).toContain(
      "Vous n'avez pas répondu à l'invitation à la séance « Piste » du mercredi 2 décembre 2026 à 18:30. "
        + "Les réponses ferment le mardi 1 décembre 2026 à 18:00."
    )
    expect(renderNotice({ ...reminder, language: "en", forGuardian: true }).text).toContain(
      "Léo has not replied to the invitation to the session \"Piste\" on Wednesday, December 2, 2026 at 6:30 PM. "
        + "Replies close on Tuesday, December 1, 2026 at 6:00 PM."
    )
  })

  it("every kind escapes its values in the HTML part", () => {
    for (const kind of ["invitation", "reminder", "promoted", "sessionChanged", "sessionCancelled"] as const) {
      const notice = renderNotice(
        facts({
          kind,
          sessionTitle: "<i>x</i>",
          athleteName: "<b>",
          forGuardian: true,
          previousStartsAt: new Date("2026-12-01T17:30:00Z"),
          repliesCloseAt: new Date("2026-12-01T17:00:00Z")
        })
      )
      expect(notice.html).not.toMatch(/<i>|<b>/u)
      expect(notice.html).toContain("&lt;i&gt;x&lt;/i&gt;")
    }
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
