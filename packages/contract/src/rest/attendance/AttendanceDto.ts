import { Schema } from "effect"
import {
  AthleteAttendance,
  AttendanceFigures,
  AttendanceSettings,
  BoundedArray,
  GroupAttendance,
  PresenceChange,
  PresenceMark,
  PresenceRecord,
  Reply,
  ReplyInput,
  SessionPresence,
  SessionReplies
} from "@club/core"
import { documented } from "../shared/documented.ts"
import { seedFields } from "../shared/SeedInput.ts"

const replyExample = {
  sessionId: 7,
  athleteId: 3,
  answer: "yes",
  reason: null,
  state: "waiting",
  waitingPosition: 1
} as const

/** The body of a reply: core's `ReplyInput`, its reason optional on the wire. */
export const ReplyInputBody = documented(
  Schema.Struct(seedFields(ReplyInput.fields)),
  "ReplyInput",
  "An athlete's answer to a session: `yes`, `no` or `maybe`, with an optional reason.",
  [{ answer: "no", reason: "Exams this week" }]
)

export const ReplyDto = documented(
  Schema.Struct(Reply.fields),
  "Reply",
  "An athlete's reply to a session and where it leaves the athlete: `confirmed` (a yes within the capacity), `waiting` (a yes beyond it; `waitingPosition` 1 is next), `maybe`, or `declined` (a no).",
  [replyExample]
)

/** The body of a session's reply settings: each key given replaces its value (null clears it); a key left out is kept. */
export const AttendanceSettingsBody = documented(
  Schema.Struct(seedFields(AttendanceSettings.fields)),
  "AttendanceSettings",
  "A session's capacity (null: no limit) and reply cut-off (a wall-clock time at the club, as `creneau`; null: replies close when the session starts). A key left out keeps its value.",
  [{ capacity: 20, replyCutoff: "2026-11-24T12:00:00" }]
)

export const SessionRepliesDto = documented(
  Schema.Struct({ ...SessionReplies.fields, replies: Schema.Array(ReplyDto) }),
  "SessionReplies",
  "A session's replies: its capacity and cut-off, how many are confirmed and waiting, and every reply, the confirmed first in reply order, then the waiting list in its order, then the maybes and the declines.",
  [{
    sessionId: 7,
    capacity: 20,
    replyCutoff: "2026-11-24T12:00:00",
    confirmed: 20,
    waiting: 1,
    replies: [replyExample]
  }]
)

const PresenceMarkDto = Schema.Struct(PresenceMark.fields).annotate({
  identifier: "PresenceMark",
  description: "An athlete's mark: `present`, `late`, `absent` or `excused`."
})

export const PresenceInputBody = documented(
  Schema.Struct({ marks: BoundedArray(PresenceMarkDto) }),
  "PresenceInput",
  "The marks recorded at once, one per athlete of the session; each replaces the athlete's earlier mark.",
  [{ marks: [{ athleteId: 3, status: "present" }, { athleteId: 4, status: "late" }] }]
)

const markedAt = "2026-11-24T19:02:11.517Z"

export const SessionPresenceDto = documented(
  Schema.Struct({
    ...SessionPresence.fields,
    marks: Schema.Array(Schema.Struct(PresenceRecord.fields).annotate({ identifier: "PresenceRecord" })),
    history: Schema.Array(Schema.Struct(PresenceChange.fields).annotate({ identifier: "PresenceChange" }))
  }),
  "SessionPresence",
  "Who came to a session: each athlete's current mark (who recorded it, when: an instant in UTC), and every change of a mark in the order written (`previousStatus` null for the first).",
  [{
    sessionId: 7,
    marks: [{ athleteId: 3, status: "present", markedBy: 2, markedAt }],
    history: [{ athleteId: 3, status: "present", previousStatus: null, changedBy: 2, changedAt: markedAt }]
  }]
)

const counts = { present: 6, late: 1, absent: 1, excused: 2, rate: 0.875 }

export const AttendanceFiguresDto = documented(
  Schema.Struct({
    ...AttendanceFigures.fields,
    athletes: Schema.Array(Schema.Struct(AthleteAttendance.fields).annotate({ identifier: "AthleteAttendance" })),
    groups: Schema.Array(Schema.Struct(GroupAttendance.fields).annotate({ identifier: "GroupAttendance" }))
  }),
  "AttendanceFigures",
  "The marks of the sessions whose `creneau` falls in the period (`from` to `to`, both included), counted by athlete and by the session's `groupe`. `rate` is (present + late) / (present + late + absent): an excused absence counts neither way; null when nothing counted.",
  [{
    from: "2026-09-01",
    to: "2027-06-30",
    athletes: [{ athleteId: 3, ...counts }],
    groups: [{ groupe: "Seniors", ...counts }]
  }]
)
