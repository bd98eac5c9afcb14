import { InvitedAthlete, InvitedSession } from "@club/core"
import { Schema } from "effect"
import { documented } from "../shared/documented.ts"

const nextCursor = Schema.NullOr(Schema.String).annotate({
  description: "The `cursor` of the next page; null on the last page."
})

export const InvitedAthleteDto = documented(
  Schema.Struct(InvitedAthlete.fields),
  "InvitedAthlete",
  "An athlete invited to a session, and how: `athlete`, one of the session's own athletes; `member`, a member of the session's group on its day. `groupId` and `groupName` name the group when the athlete is a member of it on that day (also for an `athlete` who is a member too).",
  [{ athleteId: 12, how: "member", groupId: 3, groupName: "U12" }]
)

export const InvitedPageDto = documented(
  Schema.Struct({ items: Schema.Array(InvitedAthleteDto), nextCursor }),
  "InvitedPage",
  "One page of a session's invited athletes, in athlete id order, and the cursor of the next page.",
  [{ items: [{ athleteId: 12, how: "member", groupId: 3, groupName: "U12" }], nextCursor: null }]
)

const invitedSessionExample = {
  sessionId: 7,
  name: "Tuesday training",
  creneau: "2027-03-02T18:00:00",
  groupe: "U12",
  coachId: 2,
  how: "member"
} as const

export const InvitedSessionDto = documented(
  Schema.Struct(InvitedSession.fields),
  "InvitedSession",
  "A session an athlete is invited to, and how: `athlete` (one of its athletes) or `member` (a member of its group on its day).",
  [invitedSessionExample]
)

export const InvitedSessionPageDto = documented(
  Schema.Struct({ items: Schema.Array(InvitedSessionDto), nextCursor }),
  "InvitedSessionPage",
  "One page of an athlete's sessions in (`creneau`, `id`) order, and the cursor of the next page.",
  [{ items: [invitedSessionExample], nextCursor: null }]
)
