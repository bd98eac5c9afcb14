import {
  Activity,
  ActivityId,
  AthleteId,
  CoachId,
  LocalDateTime,
  Session,
  SessionId,
  Task,
  TaskId,
  User,
  UserId
} from "@club/core"
import { Equal, Hash, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { activityFromRow } from "../src/records/activityRow.ts"
import { columnReaderOf } from "../src/shared/columnReaderOf.ts"
import { recordFromRow, valuesFromRow } from "../src/shared/rowReader.ts"
import { sessionFromRow } from "../src/sessions/sessionRow.ts"
import { taskFromRow } from "../src/todo/taskRow.ts"
import { userFromRow } from "../src/users/userRow.ts"

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

const userRow = { id: 4n, name: "camille", email: null, role: "COACH", coachId: 2n, athleteId: null, adminId: null }

describe("a record read from its row", () => {
  const cases = [
    ["Task", Task, taskRow],
    ["Session", Session, sessionRow],
    ["User", User, userRow]
  ] as const
  for (const [name, Class, row] of cases) {
    it(`is a ${name} like the one its constructor builds from the same values`, () => {
      const read = recordFromRow(Class as never)(row) as object
      const constructed = new (Class as unknown as new(fields: unknown) => object)({ ...read })
      expect(read).toBeInstanceOf(Class)
      expect(Schema.is(Class as never)(read)).toBe(true)
      expect(Reflect.ownKeys(read)).toEqual(Reflect.ownKeys(constructed))
      expect(Equal.equals(read, constructed)).toBe(true)
      expect(Hash.hash(read)).toBe(Hash.hash(constructed))
      expect(JSON.stringify(read)).toBe(JSON.stringify(constructed))
      expect(String(read)).toBe(String(constructed))
    })
  }
})

describe("rows read by their readers", () => {
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

  it("give the task and the user the classes build, with their checks, from the same values", () => {
    expect(taskFromRow(taskRow)).toEqual(new Task({ ...taskRow, id: TaskId.make(taskRow.id) }))
    expect(userFromRow(userRow)).toEqual(
      new User({
        id: UserId.make(4),
        name: "camille",
        email: null,
        role: "COACH",
        coachId: CoachId.make(2),
        athleteId: null,
        adminId: null
      })
    )
  })

  it("read a jsonb object and bytes, and a count", () => {
    const read = valuesFromRow({
      headers: Schema.Record(Schema.String, Schema.String),
      body: Schema.NullOr(Schema.Uint8Array),
      count: Schema.Int
    })
    const body = new Uint8Array([1, 2])
    expect(read({ headers: { etag: "x" }, body, count: 3 })).toEqual({ headers: { etag: "x" }, body, count: 3 })
    expect(() => read({ headers: { etag: 1 }, body, count: 3 })).toThrow()
    expect(() => read({ headers: {}, body: "AQI=", count: 3 })).toThrow()
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
  it.each([
    ["a role outside the three", { ...userRow, role: "OWNER" }],
    ["an id of another type", { ...userRow, id: "4" }],
    ["a missing link column", { ...userRow, adminId: undefined }]
  ])("refuse a user with %s", (_name, row) => {
    expect(() => userFromRow(row)).toThrow()
  })

  it("refuse a task whose date is not a date", () => {
    expect(() => taskFromRow({ ...taskRow, createdAt: "1970-01-01" })).toThrow()
  })

  it("have no reader for a schema whose column they could not check, and say so before any row is read", () => {
    expect(() => columnReaderOf("score", Schema.Union([Schema.Number, Schema.String]).ast)).toThrow(
      /No column reader for score/
    )
    expect(() => columnReaderOf("tags", Schema.Struct({ a: Schema.String }).ast)).toThrow(/No column reader for tags/)
  })
})
