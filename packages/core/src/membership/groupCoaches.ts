import { Effect } from "effect"
import { CurrentActor } from "../shared/Actor.ts"
import type { OwnedRecord } from "../shared/Permissions.ts"
import type { InvitationRepository } from "./InvitationRepository.ts"

/** What of a session or a series decides whose it is. */
export interface CoachedRecord {
  readonly coachId: number | null
  readonly groupe: string | null
}

/**
 * The record's `groupCoachIds` for the role table (issue 41: a coach of the record's group, or of
 * a group above it, acts on it as its own coach does). Read only when they can change the answer:
 * the caller is a COACH, the record has a coach that is not the caller, and a `groupe`. Otherwise
 * nothing is read (an admin's or the record's own coach's request costs no statement more).
 */
export const groupCoachesOf = (
  invitations: InvitationRepository["Service"],
  record: CoachedRecord | undefined
): Effect.Effect<Pick<OwnedRecord, "groupCoachIds">, never, CurrentActor> =>
  Effect.gen(function*() {
    const actor = yield* CurrentActor
    if (
      record === undefined || actor.role !== "COACH" || record.groupe === null || record.coachId === null ||
      record.coachId === actor.coachId
    ) return {}
    return { groupCoachIds: yield* invitations.groupCoachIds(record.groupe) }
  })
