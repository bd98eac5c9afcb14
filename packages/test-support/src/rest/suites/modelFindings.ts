import { it } from "vitest"
import type { Club } from "../Club.ts"
import {
  admin,
  athlete,
  coach,
  CreateSeries,
  CreateSession,
  EndMembership,
  EraseExtra,
  ExportPerson,
  guardian,
  Mark,
  PatchSession,
  ReadAudit,
  ReadInvited,
  ReplyFor,
  runSequence,
  Settings,
  StartMembership
} from "../model/model.ts"
import { sessionDays } from "../model/model.ts"
import { addDays } from "../model/zone.ts"

/**
 * The shrunk sequences the model-based suite printed on main at 051339e (issue 36), as fixed command
 * sequences: each fails while its bug is there. Then issue 41's chain (groups, memberships, a
 * guardian), fixed, so that every run checks it whatever the random draw reaches. Then issue 43's
 * audit trail, export and erasure.
 */
export const modelFindings = (club: () => Club) => {
  const day = sessionDays[0]
  it("item 1: an athleteIds change that keeps a current athlete answers 200, not 500", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [3], false, `${day}T00:30:00`, 15),
      new PatchSession(coach(0), 0, { athletes: [3] }, false)
    ])
  })
  it("item 1: removing one athlete of two, and adding one, keeps the others", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [0, 1], false, `${day}T18:00:00`, 60),
      new PatchSession(coach(0), 0, { athletes: [0] }, false),
      new PatchSession(coach(0), 0, { athletes: [0, 1, 2] }, false)
    ])
  })
  it("item 4: a coach creates a session only for itself (another coach's id: 403)", async () => {
    await runSequence(club(), [new CreateSession(coach(1), 0, [], false, `${day}T00:30:00`, 15)])
  })
  it("item 4: a coach absent from the body means the caller itself", async () => {
    await runSequence(club(), [new CreateSession(coach(0), "self", [], false, `${day}T00:30:00`, 15)])
  })
  it("item 4: another coach cannot reply for the athletes of a session it does not coach", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [0], false, `${day}T18:00:00`, 60),
      new ReplyFor(coach(1), 0, 0, "yes")
    ])
  })
  it("item 4: another coach cannot hand itself a session it does not coach", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [], false, `${day}T18:00:00`, 60),
      new PatchSession(coach(1), 0, { coach: 1 }, false)
    ])
  })

  // Issue 41's chain as fixed sequences, so that every run covers it whatever the draw reaches. The
  // groups: 0 the top one, 1 under it coached by coach A, 2 under 1 coached by coach B.
  it("issue 41: a member replies; its membership ended, the reply stays and it is no longer invited", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [0], false, `${day}T18:00:00`, 60, 1),
      new StartMembership(admin, 2, 1, addDays(day, -1)),
      new ReplyFor(athlete(2), 2, 0, "yes", "membership"),
      new Settings(coach(0), 0, 1),
      new ReplyFor(athlete(0), 0, 0, "yes"),
      new ReadInvited(athlete(3), 0),
      new EndMembership(coach(0), 0, addDays(day, -1)),
      new ReplyFor(athlete(2), 2, 0, "no"),
      new StartMembership(admin, 2, 1, addDays(day, -1)),
      new EndMembership(admin, 0, day),
      new ReplyFor(guardian, 1, 0, "yes"),
      new ReplyFor(guardian, 3, 0, "yes"),
      new Settings(coach(1), 0, 2)
    ])
  })
  it("issue 41: the coach of a subgroup acts on its sessions and manages its members, not the group above's", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [], false, `${day}T18:00:00`, 60, 2),
      new StartMembership(coach(1), 1, 2, day),
      new ReplyFor(coach(1), 1, 0, "yes", "membership"),
      new ReplyFor(guardian, 1, 0, "maybe", "membership"),
      new ReplyFor(guardian, 0, 0, "yes"),
      new StartMembership(coach(1), 0, 1, day),
      new StartMembership(coach(0), 0, 2, addDays(day, 1)),
      new ReadInvited(coach(1), 0),
      new Settings(coach(1), 0, 3)
    ])
  })
  it("issue 41: a member of a started session's group is marked; one who is not gets 400", async () => {
    const past = sessionDays[2]
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [], false, `${past}T18:00:00`, 60, 1),
      new StartMembership(admin, 3, 1, "2020-01-01"),
      new Mark(coach(0), 0, 3, "present", "membership"),
      new Mark(coach(0), 0, 2, "present"),
      new Mark(coach(1), 0, 3, "late", "membership")
    ])
  })
  it("issue 41: a late joiner replies to the following occurrences of its group's series, not to the earlier", async () => {
    await runSequence(club(), [
      new CreateSeries(coach(0), 0, [], false, 0, "18:00", 60, 3, 1),
      new StartMembership(admin, 2, 0, "2020-01-01", { pick: 1, offset: 0 }),
      new ReplyFor(athlete(2), 2, 0, "yes", "membership", "following"),
      new ReplyFor(athlete(2), 2, 0, "yes"),
      new ReplyFor(guardian, 0, 0, "maybe", "any", "following"),
      new ReadInvited(admin, 2)
    ])
  })
  it("issue 43: an erasure leaves no answer naming the person, not even its reply's reason (in memory it did)", async () => {
    await runSequence(club(), [new EraseExtra(coach(0))])
  })
  it("issue 43: each write's audit entries name its writer; the export lists the replies; /audit is an admin's", async () => {
    await runSequence(club(), [
      new CreateSession(coach(0), 0, [0, 1], false, `${sessionDays[0]}T18:00:00`, 60),
      new CreateSession(coach(1), 1, [2], false, `${sessionDays[0]}T18:30:00`, 60),
      new ReplyFor(athlete(0), 0, 0, "no"),
      new ReplyFor(guardian, 1, 0, "yes"),
      new ExportPerson(athlete(0), 0),
      new ExportPerson(admin, 1),
      new ExportPerson(guardian, 1),
      new ReadAudit(admin, 0),
      new ReadAudit(coach(0), 0),
      new EraseExtra(admin)
    ])
  })
}
