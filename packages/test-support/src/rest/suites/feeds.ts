import ICAL from "ical.js"
import { describe, expect, it } from "vitest"
import { expectProblem, expectStatus } from "../../expectations.ts"
import type { Caller, Club } from "../Club.ts"
import { createCoach, createSession, createUser, type SessionDto, tokenOf, unique } from "../records.ts"

interface FeedTokenDto {
  readonly token: string
  readonly athlete: string | null
  readonly coach: string | null
  readonly athletePattern: string
  readonly coachPattern: string
  readonly groupPattern: string
}

/** A feed's events as ical.js reads them: UID, local start and end at the club, summary, SEQUENCE. */
const eventsOf = (text: string) => {
  const calendar = new ICAL.Component(ICAL.parse(text))
  const zone = calendar.getFirstSubcomponent("vtimezone")
  if (zone !== null) ICAL.TimezoneService.register(new ICAL.Timezone(zone))
  return calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component)
    const local = (time: ICAL.Time) => time.toString().slice(0, 19)
    return {
      uid: event.uid,
      start: local(event.startDate),
      end: component.hasProperty("dtend") ? local(event.endDate) : null,
      summary: event.summary,
      sequence: event.sequence
    }
  })
}

/** The event a stored session is: its UID, its `creneau` as the local start, `duree` minutes later its end. */
const eventOf = (session: SessionDto, sequence = 0) => {
  const end = new Date(Date.parse(`${session.creneau}Z`) + (session.duree ?? 0) * 60_000).toISOString().slice(0, 19)
  return {
    uid: `session-${session.id}@club-training-service`,
    start: session.creneau,
    end: session.duree === null ? null : end,
    summary: session.name,
    sequence
  }
}

/** Calendar feeds (issue 17): tokens, rotation, feeds read back with ical.js, ETag and 304; on any harness. */
export const feedEndpoints = (club: () => Club) => {
  const rotate = async (caller: Caller) => {
    const reply = await caller.post("/planning/feed-token")
    expectStatus(reply, 200)
    return reply.body as FeedTokenDto
  }
  const feed = async (path: string, headers: Record<string, string> = {}) => club().anonymous.get(path, { headers })

  describe("POST and DELETE /planning/feed-token, GET /planning/feeds/{token}/...", () => {
    it("answers a 43-character token and the caller's feed paths; the athlete's feed holds its dated sessions, read back by ical.js", async () => {
      const mine = await createSession(club(), {
        name: unique("Mine"),
        creneau: "2026-03-29T10:00:00",
        duree: 90,
        athleteIds: [club().athleteId]
      })
      const undated = await createSession(club(), { name: unique("Undated"), athleteIds: [club().athleteId] })
      const notMine = await createSession(club(), { name: unique("Not mine"), creneau: "2026-03-29T10:00:00" })
      const issued = await rotate(club().athlete)
      expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/u)
      expect(issued.athlete).toBe(`/planning/feeds/${issued.token}/athlete/${club().athleteId}.ics`)
      expect(issued.coach).toBeNull()
      expect(issued.groupPattern).toBe(`/planning/feeds/${issued.token}/group/{groupe}.ics`)

      const reply = await feed(issued.athlete!)
      expectStatus(reply, 200)
      expect(reply.headers.get("content-type")).toBe("text/calendar; charset=utf-8")
      // RFC 5545 §3.4: the stream ends with END:VCALENDAR and CRLF, and every line ends with CRLF.
      const bytes = new TextEncoder().encode(reply.text)
      expect(Array.from(bytes.slice(-15))).toEqual(Array.from(new TextEncoder().encode("END:VCALENDAR\r\n")))
      expect(reply.text.split("\r\n").at(-1)).toBe("")
      expect(reply.text).not.toMatch(/[^\r]\n|\r[^\n]/u)
      const events = eventsOf(reply.text)
      const uids = events.map((event) => event.uid)
      expect(events).toContainEqual(eventOf(mine))
      expect(uids).not.toContain(`session-${undated.id}@club-training-service`)
      expect(uids).not.toContain(`session-${notMine.id}@club-training-service`)
      // Every start at the club's wall clock: DTSTART;TZID=<zone> with the zone's VTIMEZONE (UTC: DTSTART in UTC).
      const zone = new ICAL.Component(ICAL.parse(reply.text)).getFirstSubcomponent("vtimezone")
      const tzid = zone === null ? undefined : zone.getFirstPropertyValue("tzid")
      expect(reply.text).toMatch(
        tzid === undefined
          ? /^DTSTART:20260329T100000Z\r?$/mu
          : new RegExp(`^DTSTART;TZID=${tzid}:20260329T100000\\r?$`, "mu")
      )
    })

    it("serves coach and group feeds to the token's user", async () => {
      const coach = await createCoach(club())
      const groupe = unique("Feed group")
      const a = await createSession(club(), {
        name: "A",
        creneau: "2026-10-25T18:30:00",
        duree: 60,
        coachId: coach.id,
        groupe
      })
      const b = await createSession(club(), { name: "B", creneau: "2026-10-24T18:30:00", duree: null, groupe })
      const issued = await rotate(club().coach)
      expect(issued.coach).toBe(`/planning/feeds/${issued.token}/coach/${club().coachId}.ics`)
      const ofCoach = await feed(issued.coachPattern.replace("{id}", String(coach.id)))
      expectStatus(ofCoach, 200)
      expect(eventsOf(ofCoach.text)).toEqual([eventOf(a)])
      const ofGroup = await feed(issued.groupPattern.replace("{groupe}", encodeURIComponent(groupe)))
      expectStatus(ofGroup, 200)
      expect(eventsOf(ofGroup.text)).toEqual([eventOf(b), eventOf(a)])
    })

    it("answers 304 with no body to If-None-Match holding the ETag, and a new ETag and SEQUENCE once a session changed", async () => {
      const session = await createSession(club(), {
        name: unique("Polled"),
        creneau: "2026-05-05T07:00:00",
        duree: 30,
        athleteIds: [club().athleteId]
      })
      const path = (await rotate(club().athlete)).athlete!
      const first = await feed(path)
      const etag = first.headers.get("etag")!
      expect(etag).toMatch(/^W\/".+"$/u)
      const again = await feed(path, { "if-none-match": etag })
      expectStatus(again, 304)
      expect(again.text).toBe("")
      expect(again.headers.get("etag")).toBe(etag)

      expectStatus(await club().coach.put(`/session/update/${session.id}`, { duree: 45 }), 204)
      const changed = await feed(path, { "if-none-match": etag })
      expectStatus(changed, 200)
      expect(changed.headers.get("etag")).not.toBe(etag)
      expect(eventsOf(changed.text)).toContainEqual(eventOf({ ...session, duree: 45 }, 1))

      // Leaving the feed changes it too.
      const before = changed.headers.get("etag")!
      expectStatus(await club().coach.put(`/session/update/${session.id}`, { athleteIds: [] }), 204)
      const left = await feed(path, { "if-none-match": before })
      expectStatus(left, 200)
      expect(eventsOf(left.text).map((event) => event.uid)).not.toContain(`session-${session.id}@club-training-service`)
    })

    it("stops the old URL at once on rotation, and every URL on DELETE; an unknown token is a 404 that says no more", async () => {
      const old = await rotate(club().athlete)
      expectStatus(await feed(old.athlete!), 200)
      const renewed = await rotate(club().athlete)
      expect(renewed.token).not.toBe(old.token)
      expectProblem(await feed(old.athlete!), 404, "No such feed")
      expectStatus(await feed(renewed.athlete!), 200)
      expectStatus(await club().athlete.delete("/planning/feed-token"), 204)
      expectProblem(await feed(renewed.athlete!), 404, "No such feed")
      expectProblem(await feed(`/planning/feeds/${"A".repeat(43)}/group/x.ics`), 404, "No such feed")
      expectStatus(await club().anonymous.post("/planning/feed-token"), 401)
    })

    it("refuses an Idempotency-Key with 400 naming it: the answer is a secret, which no store keeps (issue 37)", async () => {
      const refused = await club().athlete.post("/planning/feed-token", undefined, {
        headers: { "idempotency-key": unique("feed-token-key") }
      })
      expectProblem(refused, 400, /^idempotency-key: /u)
      expect(refused.text).not.toMatch(/"token"/u)
      expectStatus(await club().athlete.post("/planning/feed-token"), 200)
    })

    it("a password change ends the user's feed token, as it ends bearer tokens (issue 37)", async () => {
      const user = await createUser(club())
      const caller = club().withToken(await tokenOf(club(), user.name, user.password))
      const issued = await rotate(caller)
      const groupFeed = issued.groupPattern.replace("{groupe}", unique("group"))
      expectStatus(await feed(groupFeed), 200)
      const password = unique("new-password")
      club().passwords.add(password)
      expectStatus(await club().admin.put(`/users/update/${user.id}`, { password }), 200)
      expectProblem(await feed(groupFeed), 404, "No such feed")
    })
  })
}
