import { eventually } from "@club/test-support"
import { expectProblem, expectStatus } from "@club/test-support/expectations"
import {
  callerFor,
  createAthlete,
  createCoachMember,
  createUser,
  endMembership,
  type GroupDto,
  linkGuardian,
  sorted,
  startMembership,
  tokenOf,
  unique
} from "@club/test-support/rest"
import { expect, it } from "vitest"
import { startReceiver } from "../webhooks/Receiver.ts"
import { onEveryDatabase } from "./support/club.ts"

/**
 * Issue 41's "Done when": the club's everyday workflow over the wire, on the embedded database and
 * on PostgreSQL, through REST alone. A club of groups (a root, a youth section and its U12 team,
 * each with its coach), a weekly series of U12, members who join and leave between its occurrences,
 * a guardian replying for two children, the coaches' rights through the tree, who is invited to
 * each occurrence, the feeds, and the membership events a webhook receives.
 */

/** The receiver listens on 127.0.0.1, which a webhook reaches only when the operator allows it (issue 37). */
const env = { WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32", WEBHOOK_POLL_MS: "50" }

interface ReplyDto {
  readonly sessionId: number
  readonly athleteId: number
  readonly answer: string
  readonly state: string
  readonly waitingPosition: number | null
}

interface InvitedDto {
  readonly athleteId: number
  readonly how: string
  readonly groupId: number | null
  readonly groupName: string | null
}

/** A membership event as the receiver gets it: it names its group instead of a session. */
interface MembershipEvent {
  readonly type: string
  readonly groupId: number
  readonly data: { readonly membershipId: number; readonly athleteId: number; readonly until: string | null }
}

await onEveryDatabase("The club's workflow with groups, memberships and guardians (issue 41)", (club) => {
  it(
    "a U12 team and its weekly series: members reply, a late joiner from its day on, a leaver no longer after its last day, a guardian for two children, coaches through the tree, who is invited, the feeds, the events",
    async () => {
      /** Day `n` from three weeks ahead: the series' first occurrence is day 0 (within its horizon, replies open). */
      const start = Date.now() + 21 * 86_400_000
      const day = (n: number) => new Date(start + n * 86_400_000).toISOString().slice(0, 10)
      const receiver = await startReceiver()
      try {
        const webhook = await club().admin.post("/attendance/webhooks", { url: receiver.url, secret: unique("secret") })
        expectStatus(webhook, 201)

        // The club's tree: the admin makes the root, a youth section and its U12 team, and another team.
        const sectionCoach = await createCoachMember(club(), { name: "Youth section coach" })
        const teamCoach = await createCoachMember(club(), { name: "U12 coach" })
        const otherCoach = await createCoachMember(club(), { name: "Seniors coach" })
        const group = async (body: Record<string, unknown>) => {
          const created = await club().admin.post("/groups", { name: unique("group"), coachIds: [], ...body })
          expectStatus(created, 201)
          return created.body as GroupDto
        }
        const root = await group({ name: unique("Club"), parentId: null })
        expect(root.parentId).toBeNull()
        const section = await group({ name: unique("Youth"), parentId: root.id, coachIds: [sectionCoach.id] })
        const u12 = await group({ name: unique("U12"), parentId: section.id, coachIds: [teamCoach.id] })
        await group({ name: unique("Seniors"), parentId: root.id, coachIds: [otherCoach.id] })

        // Its athletes: a member and a late joiner with users of their own, a leaver, two children.
        const athleteWithUser = async (name: string) => {
          const id = (await createAthlete(club(), { name })).id
          const user = await createUser(club(), { role: "ATHLETE", athleteId: id })
          return { id, caller: club().withToken(await tokenOf(club(), user.name, user.password)) }
        }
        const member = await athleteWithUser("Mia Member")
        const late = await athleteWithUser("Leo Late")
        const leaver = (await createAthlete(club(), { name: "Lea Leaver" })).id
        const [child1, child2] = [
          (await createAthlete(club(), { name: "Ann Child" })).id,
          (await createAthlete(club(), { name: "Ben Child" })).id
        ]
        const byTeamCoach = callerFor(club(), teamCoach.id)
        for (const athleteId of [member.id, child1!, child2!]) {
          await startMembership(club(), u12.id, athleteId, day(-30))
        }
        // The team's coach manages its memberships too.
        const leaving = await startMembership(club(), u12.id, leaver, day(-30), byTeamCoach)

        // A weekly series of U12, by its coach: four occurrences, days 0, 7, 14 and 21.
        const series = await byTeamCoach.post("/planning/series", {
          name: "U12 Tuesday",
          groupe: u12.name,
          coachId: teamCoach.id,
          duree: 90,
          start: `${day(0)}T18:00:00`,
          rrule: "FREQ=WEEKLY;COUNT=4",
          athleteIds: []
        })
        expectStatus(series, 201)
        const occurrences = (series.body as { occurrences: ReadonlyArray<{ sessionId: number }> }).occurrences.map(
          (o) => o.sessionId
        )
        expect(occurrences).toHaveLength(4)
        const [first, second, third, fourth] = occurrences as [number, number, number, number]
        const reply = (caller: typeof byTeamCoach, athleteId: number, sessionId: number, answer: string) =>
          caller.put(`/attendance/athletes/${athleteId}/replies/${sessionId}`, { answer })
        const replied = async (caller: typeof byTeamCoach, athleteId: number, sessionId: number, answer: string) => {
          const written = await reply(caller, athleteId, sessionId, answer)
          expectStatus(written, 200)
          return (written.body as ReadonlyArray<ReplyDto>)[0]!
        }

        // A member replies to the first occurrence itself.
        expect(await replied(member.caller, member.id, first, "yes")).toMatchObject({
          sessionId: first,
          athleteId: member.id,
          state: "confirmed"
        })

        // A late joiner, a member from day 3 (between the first and the second occurrence), started
        // by the team's coach: not invited to the first (400), invited from the second on.
        await startMembership(club(), u12.id, late.id, day(3), byTeamCoach)
        expectProblem(await reply(late.caller, late.id, first, "yes"), 400, /is not an athlete of session/u)

        // The section's coach, a coach of the group above U12, sets the capacity of the second
        // occurrence; a coach of another group may not.
        expectStatus(
          await callerFor(club(), sectionCoach.id).put(`/attendance/sessions/${second}/settings`, { capacity: 2 }),
          200
        )
        expectProblem(
          await callerFor(club(), otherCoach.id).put(`/attendance/sessions/${second}/settings`, { capacity: 9 }),
          403
        )
        expect(await replied(late.caller, late.id, second, "yes")).toMatchObject({ state: "confirmed" })
        expect(await replied(byTeamCoach, leaver, second, "yes")).toMatchObject({ state: "confirmed" })

        // A guardian: an ATHLETE user without an athlete record, linked by the admin to two children.
        const parent = await createUser(club(), { role: "ATHLETE" })
        expectStatus(await club().admin.delete(`/athletes/${parent.athleteId}`), 204)
        const guardian = club().withToken(await tokenOf(club(), parent.name, parent.password))
        await linkGuardian(club(), parent.id, child1!)
        await linkGuardian(club(), parent.id, child2!)
        expect((await guardian.get("/auth/me")).body).toMatchObject({
          athleteId: null,
          guardedAthleteIds: sorted([child1!, child2!])
        })
        expect(await replied(guardian, child1!, first, "yes")).toMatchObject({ state: "confirmed" })
        expect(await replied(guardian, child2!, first, "maybe")).toMatchObject({ state: "maybe" })
        // The second occurrence is full (capacity 2): a yes waits.
        expect(await replied(guardian, child1!, second, "yes")).toMatchObject({ state: "waiting", waitingPosition: 1 })
        expect(await replied(guardian, child2!, second, "no")).toMatchObject({ state: "declined" })
        // Not for an athlete it does not guard.
        expectProblem(await reply(guardian, member.id, first, "no"), 403)

        // The leaver's last day is day 9 (between the second and the third occurrence): not invited
        // to the third (400); its reply to the second is kept.
        await endMembership(club(), leaving.id, day(9), byTeamCoach)
        expectProblem(await reply(byTeamCoach, leaver, third, "yes"), 400, /is not an athlete of session/u)
        const secondReplies = (await club().athlete.get(`/attendance/sessions/${second}/replies`)).body as {
          capacity: number
          confirmed: number
          waiting: number
          replies: ReadonlyArray<ReplyDto>
        }
        expect(secondReplies).toMatchObject({ capacity: 2, confirmed: 2, waiting: 1 })
        expect(secondReplies.replies.map((r) => [r.athleteId, r.state])).toEqual([
          [late.id, "confirmed"],
          [leaver, "confirmed"],
          [child1, "waiting"],
          [child2, "declined"]
        ])

        // Who is invited to each occurrence: exactly the members on its day, by membership.
        const invited = async (sessionId: number) => {
          const page = await club().athlete.get(`/attendance/sessions/${sessionId}/invited`)
          expectStatus(page, 200)
          return page.body as { items: ReadonlyArray<InvitedDto>; nextCursor: string | null }
        }
        const asMembers = (ids: ReadonlyArray<number>) => ({
          items: sorted(ids).map((athleteId) => ({ athleteId, how: "member", groupId: u12.id, groupName: u12.name })),
          nextCursor: null
        })
        const children = [child1!, child2!]
        expect(await invited(first)).toEqual(asMembers([member.id, leaver, ...children]))
        expect(await invited(second)).toEqual(asMembers([member.id, leaver, late.id, ...children]))
        expect(await invited(third)).toEqual(asMembers([member.id, late.id, ...children]))
        expect(await invited(fourth)).toEqual(asMembers([member.id, late.id, ...children]))
        const sessionsOf = async (athleteId: number) =>
          ((await club().athlete.get(`/attendance/athletes/${athleteId}/sessions?from=${day(0)}&to=${day(21)}`))
            .body as { items: ReadonlyArray<{ sessionId: number }> }).items.map((s) => s.sessionId)
        expect(await sessionsOf(late.id)).toEqual([second, third, fourth])
        expect(await sessionsOf(leaver)).toEqual([first, second])

        // The feeds: the guardian's holds its children's four occurrences; the late joiner's the last three.
        const uid = (sessionId: number) => `UID:session-${sessionId}@club-training-service`
        const feed = async (caller: typeof guardian, file: string) => {
          const issued = (await caller.post("/planning/feed-token")).body as { token: string }
          const answered = await club().anonymous.get(`/planning/feeds/${issued.token}/${file}`)
          expectStatus(answered, 200)
          return answered.text
        }
        const guardianFeed = await feed(guardian, "guardian.ics")
        for (const sessionId of occurrences) expect(guardianFeed).toContain(uid(sessionId))
        const lateFeed = await feed(late.caller, `athlete/${late.id}.ics`)
        expect(lateFeed).not.toContain(uid(first))
        for (const sessionId of [second, third, fourth]) expect(lateFeed).toContain(uid(sessionId))

        // The membership events of U12 went out through the outbox to the webhook.
        const ofU12 = () =>
          receiver.received.map((r) => r.event as unknown as MembershipEvent).filter((e) =>
            e.groupId === u12.id && e.type.startsWith("membership")
          )
        expect(await eventually(async () => ofU12().length >= 6, 20_000)).toBe(true)
        const events = ofU12().filter((e, i, all) =>
          all.findIndex((o) => o.type === e.type && o.data.membershipId === e.data.membershipId) === i
        )
        expect(events.map((e) => [e.type, e.data.athleteId])).toEqual([
          ["membershipStarted", member.id],
          ["membershipStarted", child1],
          ["membershipStarted", child2],
          ["membershipStarted", leaver],
          ["membershipStarted", late.id],
          ["membershipEnded", leaver]
        ])
        expect(events.at(-1)!.data).toMatchObject({ membershipId: leaving.id, until: day(9) })
        expectStatus(await club().admin.delete(`/attendance/webhooks/${(webhook.body as { id: number }).id}`), 204)
      } finally {
        await receiver.close()
      }
    },
    120_000
  )
}, { env })
