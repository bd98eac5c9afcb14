import { Activity, ActivityId, AthleteId, CoachId, LocalDateTime, Session, SessionId } from "@club/core"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { activityFromRow } from "../src/rows/ActivityRow.ts"
import { sessionFromRow } from "../src/rows/SessionRow.ts"
import { TaskFromRow, taskFromRow } from "../src/rows/TaskRow.ts"

const sessionRow = {
  id: 7n,
  name: "Morning run",
  isRecurrent: true,
  creneau: "2026-11-21T18:30:00",
  duree: 90n,
  groupe: null,
  coachId: 3n,
  athleteIds: [1n, 2n, 30n],
  activiteIds: []
}

const activityRow = {
  id: 12n,
  name: "Sprints",
  theme: null,
  duree: 20n,
  dataActivite: ["cones", "stopwatch"],
  sessionId: 7n
}

const taskRow = { id: "3f0c2b9e-5d4a-4c1e-9f7a-2b8c6d1e0a11", title: "Chalk", description: "", createdAt: new Date(0) }

describe("rows read in bulk", () => {
  it("give the session the class builds, with its checks, from the same values", () => {
    expect(sessionFromRow(sessionRow)).toEqual(
      new Session({
        id: SessionId.make(7),
        name: "Morning run",
        isRecurrent: true,
        creneau: LocalDateTime.make("2026-11-21T18:30:00"),
        duree: 90,
        groupe: null,
        coachId: CoachId.make(3),
        athleteIds: [AthleteId.make(1), AthleteId.make(2), AthleteId.make(30)],
        activiteIds: []
      })
    )
  })

  it("give the activity the class builds, with its checks, from the same values", () => {
    const activity = {
      id: ActivityId.make(12),
      name: "Sprints",
      theme: null,
      duree: 20,
      dataActivite: ["cones", "stopwatch"],
      sessionId: SessionId.make(7)
    }
    expect(activityFromRow(activityRow)).toEqual(new Activity(activity))
    expect(activityFromRow({ ...activityRow, sessionId: null, dataActivite: [] }))
      .toEqual(new Activity({ ...activity, sessionId: null, dataActivite: [] }))
  })

  it("give the same tasks as their Schema decoder", () => {
    expect(taskFromRow(taskRow)).toEqual(Schema.decodeUnknownSync(TaskFromRow)(taskRow))
  })

  it.each([
    ["an id beyond JavaScript's safe integers", { ...sessionRow, id: 2n ** 60n }],
    ["a missing column", { ...sessionRow, athleteIds: undefined }],
    ["a value of another type", { ...sessionRow, name: 12 }],
    ["a duration beyond JavaScript's safe integers", { ...sessionRow, duree: 2n ** 60n }],
    ["a flag of another type", { ...sessionRow, isRecurrent: "yes" }]
  ])("refuse a session with %s", (_name, row) => {
    expect(() => sessionFromRow(row)).toThrow()
  })

  it.each([
    ["a list holding a number", { ...activityRow, dataActivite: ["cones", 3] }],
    ["a missing column", { ...activityRow, theme: undefined }]
  ])("refuse an activity with %s", (_name, row) => {
    expect(() => activityFromRow(row)).toThrow()
  })
})
