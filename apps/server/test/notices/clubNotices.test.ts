import { eventually, startSmtpServer } from "@club/test-support"
import { createAthlete, createGroup, createUser, linkGuardian, startMembership, unique } from "@club/test-support/rest"
import { afterAll, expect, it } from "vitest"
import { onEveryDatabase } from "../rest/support/club.ts"

/**
 * Issue 42's "done when", over the wire on both databases with a real SMTP server counting: a series
 * open to a group invites its members (and a guardian) once; the member who never answers gets
 * exactly one reminder, the one who answered none; a cancelled occurrence tells its invitees; a
 * one-click unsubscribe from a notice's own `List-Unsubscribe` link stops the next notice of that
 * kind, at once; a member's own language is honoured. (A promoted athlete and a guardian:
 * delivery.test.ts; two instances and a SIGKILL: reliability/notices.test.ts; a receiver verifying a
 * webhook with a Standard Webhooks library: webhooks/standardWebhooks.test.ts.)
 */

const smtp = await startSmtpServer()
afterAll(() => smtp.close())

/** A reminder is due this long before a session's start (its cut-off when it has none). */
const leadMinutes = 2

const env = {
  SMTP_URL: smtp.url,
  SMTP_FROM: "Club <club@club.test>",
  SMTP_TIMEOUT_SECONDS: "2",
  CLUB_LANGUAGE: "en",
  CLUB_TIMEZONE: "UTC",
  PUBLIC_URL: "https://club.example",
  NOTICE_POLL_MS: "50",
  NOTICE_REMINDER_POLL_MS: "250",
  NOTICE_REMINDER_LEAD_MINUTES: String(leadMinutes)
}

const to = (address: string, subject: RegExp) =>
  smtp.received.filter((mail) => mail.envelopeTo.includes(address) && subject.test(mail.subject ?? ""))
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** A wall-clock time at the club (UTC here), `ms` from now, to the second. */
const wallClockIn = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19)

const invitation = /^(Invitation: |Invitation : )/u
const reminder = /^Reply awaited: /u
const cancelled = /^(Session cancelled: |Séance annulée : )/u

await onEveryDatabase("Notices of a series open to a group", (club) => {
  it("invites, reminds the one who never answers once, tells a cancellation, and stops at an unsubscribe", async () => {
    smtp.behave({ _tag: "accept" })
    const group = await createGroup(club())
    const silent = await createAthlete(club(), { name: unique("Sam") })
    const answering = await createAthlete(club(), { name: unique("Ada") })
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    for (const athlete of [silent, answering]) await startMembership(club(), group.id, athlete.id, yesterday)
    const [silentEmail, answeringEmail, parentEmail] = ["sam", "ada", "parent"].map((name) =>
      `${unique(name)}@club.test`
    ) as [string, string, string]
    await createUser(club(), { role: "ATHLETE", athleteId: silent.id, email: silentEmail })
    const answeringUser = await createUser(club(), { role: "ATHLETE", athleteId: answering.id, email: answeringEmail })
    const parent = await createUser(club(), { role: "ATHLETE", email: parentEmail, name: unique("Parent") })
    await linkGuardian(club(), parent.id, silent.id)
    // Ada reads her notices in French, whatever the club's language.
    const french = await club().admin.put(`/notices/preferences/${answeringUser.id}`, {
      language: "fr",
      emailEnabled: true,
      mutedKinds: []
    })
    expect(french.status, french.text).toBe(200)

    // Daily, three occurrences, the first one's reminder due 10 s from now: time to answer before it.
    const series = await club().coach.post("/planning/series", {
      name: unique("Relay"),
      groupe: group.name,
      coachId: club().coachId,
      duree: 60,
      start: wallClockIn(leadMinutes * 60_000 + 10_000),
      rrule: "FREQ=DAILY;COUNT=3",
      athleteIds: []
    })
    expect(series.status, series.text).toBe(201)
    const { id: seriesId, occurrences } = series.body as {
      id: number
      occurrences: ReadonlyArray<{ sessionId: number }>
    }
    const [first, second, third] = occurrences.map((o) => o.sessionId) as [number, number, number]
    const answered = await club().coach.put(`/attendance/athletes/${answering.id}/replies/${first}`, { answer: "yes" })
    expect(answered.status, answered.text).toBe(200)

    // One invitation each for the whole series, not one per occurrence.
    expect(
      await eventually(
        async () => [silentEmail, answeringEmail, parentEmail].every((address) => to(address, invitation).length >= 1),
        20_000
      )
    ).toBe(true)
    expect(to(silentEmail, invitation)[0]!.text).toContain("to the series")
    expect(to(parentEmail, invitation)[0]!.text).toContain(`${silent.name} is invited`)
    expect(to(answeringEmail, invitation)[0]!.subject).toMatch(/^Invitation : /u)

    // The reminder: the one who never answered, and their guardian; not the one who did.
    expect(
      await eventually(
        async () => to(silentEmail, reminder).length >= 1 && to(parentEmail, reminder).length >= 1,
        60_000
      )
    ).toBe(true)
    expect(to(silentEmail, reminder)[0]!.text).toContain("You have not replied")

    // A cancelled occurrence tells everyone it invited.
    const cancelSecond = await club().coach.delete(`/planning/series/${seriesId}/occurrences/${second}`)
    expect(cancelSecond.status, cancelSecond.text).toBe(204)
    expect(
      await eventually(
        async () => [silentEmail, answeringEmail, parentEmail].every((address) => to(address, cancelled).length >= 1),
        20_000
      )
    ).toBe(true)
    const adaCancelled = to(answeringEmail, cancelled)[0]!
    expect(adaCancelled.subject).toMatch(/^Séance annulée : /u)
    expect(adaCancelled.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")

    // Ada unsubscribes from cancellations with the link of that mail, as her mail client would.
    const link = /^<(https:\/\/club\.example)(\/notices\/unsubscribe\?token=[^>]+)>$/u.exec(
      adaCancelled.headers.get("list-unsubscribe") ?? ""
    )
    expect(link).not.toBeNull()
    const unsubscribed = await club().anonymous.send("POST", link![2]!, {
      body: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expect(unsubscribed.status, unsubscribed.text).toBe(200)

    // The next cancellation reaches the others, not her.
    const cancelThird = await club().coach.delete(`/planning/series/${seriesId}/occurrences/${third}`)
    expect(cancelThird.status, cancelThird.text).toBe(204)
    expect(
      await eventually(
        async () => to(silentEmail, cancelled).length >= 2 && to(parentEmail, cancelled).length >= 2,
        20_000
      )
    ).toBe(true)
    // Time for a late copy, were there one.
    await pause(1500)
    expect(to(answeringEmail, cancelled)).toHaveLength(1)
    expect([silentEmail, answeringEmail, parentEmail].map((address) => to(address, invitation).length)).toEqual([
      1,
      1,
      1
    ])
    expect([silentEmail, answeringEmail, parentEmail].map((address) => to(address, reminder).length)).toEqual([1, 0, 1])
    expect(to(silentEmail, cancelled).map((mail) => mail.messageId)).toHaveLength(2)
    // Each notice its own Message-ID (the SMTP server is shared by both databases' runs: count ours only).
    const ours = smtp.received.filter((mail) =>
      [silentEmail, answeringEmail, parentEmail].some((address) => mail.envelopeTo.includes(address))
    )
    expect(new Set(ours.map((mail) => mail.messageId)).size).toBe(ours.length)
  }, 120_000)
}, { env })
