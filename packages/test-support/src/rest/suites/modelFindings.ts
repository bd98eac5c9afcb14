import { it } from "vitest"
import type { Club } from "../Club.ts"
import { coach, CreateSession, PatchSession, ReplyFor, runSequence } from "../model/model.ts"
import { sessionDays } from "../model/model.ts"

/**
 * The shrunk sequences the model-based suite printed on main at 051339e (issue 36), as fixed command
 * sequences: each fails while its bug is there.
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
}
