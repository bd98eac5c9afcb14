import { Schema } from "effect"
import { AdminId, AthleteId, CoachId, SessionId } from "./Ids.ts"
import { Limits } from "./Limits.ts"

/**
 * An id a caller supplies on create (CONTRACT.md "Identifiers"): an id of its kind, at most
 * `Limits.maxSuppliedId`. The database moves its sequence past a supplied id, so an id near the
 * top of the generated range would leave no room for generated ones: every later create
 * without an id would fail.
 */
const isSuppliedId = Schema.isLessThanOrEqualTo(Limits.maxSuppliedId, {
  expected: `an id of at most ${Limits.maxSuppliedId} (larger ids are only generated)`
})

export const SuppliedAthleteId = AthleteId.check(isSuppliedId)
export const SuppliedCoachId = CoachId.check(isSuppliedId)
export const SuppliedAdminId = AdminId.check(isSuppliedId)
export const SuppliedSessionId = SessionId.check(isSuppliedId)
