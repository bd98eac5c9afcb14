import type { AthleteId, UserId } from "../shared/Ids.ts"
import type { LocalDateTime } from "../shared/LocalDateTime.ts"
import type { ReplyAnswer, ReplyState } from "./Attendance.ts"

/** What the in-memory store keeps of a session's attendance (`InMemoryStore`'s `attendance`). */
export interface StoredReply {
  readonly athleteId: AthleteId
  answer: ReplyAnswer
  reason: string | null
  state: ReplyState
  /** The order of the yes (a counter over every session, as PostgreSQL's sequence); null for another answer. */
  yesOrder: number | null
  by: UserId
  /**
   * Whether the athlete has been one of the session's athletes while the reply stood: only then
   * does leaving them take the reply (PostgreSQL's trigger on \`session_athletes\`).
   */
  ofAthletes: boolean
}

export interface SessionAttendance {
  capacity: number | null
  replyCutoff: LocalDateTime | null
  readonly replies: Map<AthleteId, StoredReply>
}
