import { Schema } from "effect"
import { AttendanceSettings, Reply, ReplyInput, SessionReplies } from "@club/core"
import { documented } from "./Documented.ts"
import { seedFields } from "./SeedInput.ts"

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
