import { eventually, type ReceivedMail, startSmtpServer } from "@club/test-support"
import { createAthlete, createSession, createUser, linkGuardian, unique } from "@club/test-support/rest"
import { afterAll, expect, it } from "vitest"
import { type Club, onEveryDatabase } from "../rest/support/club.ts"

/**
 * Issue 42 over the wire: a promotion written by a reply becomes notices in the same transaction,
 * which the server's worker sends to a real SMTP server (the count is the server's), retrying a
 * transient refusal and giving a permanent one up at once.
 */

const smtp = await startSmtpServer()
afterAll(() => smtp.close())

const env = {
  SMTP_URL: smtp.url,
  SMTP_FROM: "Club <club@club.test>",
  SMTP_TIMEOUT_SECONDS: "2",
  CLUB_LANGUAGE: "en",
  CLUB_TIMEZONE: "Europe/Paris",
  PUBLIC_URL: "https://club.example/app/",
  NOTICE_POLL_MS: "50",
  NOTICE_REMINDER_POLL_MS: "250",
  NOTICE_RETRY_BASE_MS: "200",
  NOTICE_RETRY_MAX_MS: "400",
  NOTICE_MAX_ATTEMPTS: "50"
}

const to = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address))
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A session of 2099 with capacity 1: a filler says yes, the athlete says yes (waiting), the filler
 * withdraws: the athlete is promoted. The athlete's user gets `email`; `guardianEmail` a guardian.
 */
const promotion = async (club: Club, email: string, guardianEmail?: string) => {
  const filler = await createAthlete(club)
  const promoted = await createAthlete(club, { name: unique("Ana") })
  const session = await createSession(club, {
    name: unique("Track"),
    creneau: "2099-06-01T18:00:00",
    coachId: club.coachId,
    athleteIds: [filler.id, promoted.id]
  })
  // The people are given their addresses after the session's invitation was written (to nobody, then),
  // so the promotion is the one notice they receive.
  await createUser(club, { role: "ATHLETE", athleteId: promoted.id, email })
  if (guardianEmail !== undefined) {
    const parent = await createUser(club, { role: "ATHLETE", email: guardianEmail, name: unique("Parent") })
    await linkGuardian(club, parent.id, promoted.id)
  }
  const answer = async (athleteId: number, value: string) => {
    const reply = await club.coach.put(`/attendance/athletes/${athleteId}/replies/${session.id}`, { answer: value })
    expect(reply.status, reply.text).toBe(200)
  }
  expect((await club.coach.put(`/attendance/sessions/${session.id}/settings`, { capacity: 1 })).status).toBe(200)
  await answer(filler.id, "yes")
  await answer(promoted.id, "yes")
  await answer(filler.id, "no")
  return { sessionId: session.id, athleteName: promoted.name }
}

const messageIdPattern = /^<notice-\d+@club\.example>$/u

await onEveryDatabase("Notices sent by email", (club) => {
  it("a promoted athlete and their guardian each receive exactly one email", async () => {
    smtp.behave({ _tag: "accept" })
    const email = `${unique("ana")}@club.test`
    const guardianEmail = `${unique("parent")}@club.test`
    const { athleteName, sessionId } = await promotion(club(), email, guardianEmail)
    expect(await eventually(async () => to(email).length >= 1 && to(guardianEmail).length >= 1, 20_000)).toBe(true)
    // Time for a second copy, were there one.
    await pause(1000)
    expect([to(email).length, to(guardianEmail).length]).toEqual([1, 1])
    const [own, guardian] = [to(email)[0]!, to(guardianEmail)[0]!] as const satisfies ReadonlyArray<ReceivedMail>
    expect(own.messageId).toMatch(messageIdPattern)
    expect(guardian.messageId).toMatch(messageIdPattern)
    expect(own.messageId).not.toBe(guardian.messageId)
    expect(own.headers.get("from")).toContain("club@club.test")
    expect(own.subject).toMatch(/^You have a place: Track-/u)
    expect(guardian.subject).not.toContain("You have")
    expect(guardian.subject).toContain(`${athleteName} has a place`)
    // 18:00 at the club, in English and in the club's zone.
    expect(own.text).toContain("6:00")
    expect(own.text).toContain(`https://club.example/app/sessions/${sessionId}`)
    expect(own.links).toEqual([`https://club.example/app/sessions/${sessionId}`])
    expect(own.html).toContain("from the waiting list")
  })

  it("an athlete taken out of a full session frees a place: the one promoted is told once", async () => {
    smtp.behave({ _tag: "accept" })
    const email = `${unique("freed")}@club.test`
    const leaving = await createAthlete(club())
    const waiting = await createAthlete(club(), { name: unique("Wai") })
    const session = await createSession(club(), {
      name: unique("Full"),
      creneau: "2099-06-02T18:00:00",
      coachId: club().coachId,
      athleteIds: [leaving.id, waiting.id]
    })
    await createUser(club(), { role: "ATHLETE", athleteId: waiting.id, email })
    expect((await club().coach.put(`/attendance/sessions/${session.id}/settings`, { capacity: 1 })).status).toBe(200)
    for (const athleteId of [leaving.id, waiting.id]) {
      const reply = await club().coach.put(`/attendance/athletes/${athleteId}/replies/${session.id}`, { answer: "yes" })
      expect(reply.status, reply.text).toBe(200)
    }
    // The seed's update takes the confirmed athlete out: the database's refill trigger promotes the other.
    const update = await club().coach.put(`/session/update/${session.id}`, { athleteIds: [waiting.id] })
    expect(update.status, update.text).toBe(204)
    expect(await eventually(async () => to(email).length >= 1, 20_000)).toBe(true)
    await pause(1000)
    expect(to(email)).toHaveLength(1)
    expect(to(email)[0]!.subject).toMatch(/^You have a place: Full-/u)
  })

  it("a transient refusal (451) is retried until the relay accepts; one copy arrives", async () => {
    smtp.behave({ _tag: "fail", code: 451 })
    const began = smtp.dataStarted()
    const email = `${unique("retry")}@club.test`
    await promotion(club(), email)
    expect(await eventually(async () => smtp.dataStarted() >= began + 2, 20_000)).toBe(true)
    smtp.behave({ _tag: "accept" })
    expect(await eventually(async () => to(email).length >= 1, 20_000)).toBe(true)
    await pause(1000)
    expect(to(email).length).toBe(1)
  })

  it("a permanent refusal (554) gives the notice up at once: never tried again", async () => {
    smtp.behave({ _tag: "fail", code: 554 })
    const began = smtp.dataStarted()
    const email = `${unique("bad")}@club.test`
    await promotion(club(), email)
    expect(await eventually(async () => smtp.dataStarted() >= began + 1, 20_000)).toBe(true)
    // Several retry delays pass: a transient failure would have been tried again by now.
    await pause(2000)
    smtp.behave({ _tag: "accept" })
    await pause(1000)
    expect(smtp.dataStarted()).toBe(began + 1)
    expect(to(email)).toEqual([])
  })
}, { env })
