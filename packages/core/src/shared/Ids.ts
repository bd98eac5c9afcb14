import { Schema } from "effect"

/** Database-generated identifiers are positive integers within JavaScript's safe range. */
const PositiveSafeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

export const AthleteId = PositiveSafeInt.pipe(Schema.brand("AthleteId"))
export type AthleteId = typeof AthleteId.Type
export const CoachId = PositiveSafeInt.pipe(Schema.brand("CoachId"))
export type CoachId = typeof CoachId.Type
export const AdminId = PositiveSafeInt.pipe(Schema.brand("AdminId"))
export type AdminId = typeof AdminId.Type
export const UserId = PositiveSafeInt.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type
export const SessionId = PositiveSafeInt.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type
export const ActivityId = PositiveSafeInt.pipe(Schema.brand("ActivityId"))
export type ActivityId = typeof ActivityId.Type
export const TaskId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("TaskId"))
export type TaskId = typeof TaskId.Type
export const SeriesId = PositiveSafeInt.pipe(Schema.brand("SeriesId"))
export type SeriesId = typeof SeriesId.Type
export const GroupId = PositiveSafeInt.pipe(Schema.brand("GroupId"))
export type GroupId = typeof GroupId.Type
export const MembershipId = PositiveSafeInt.pipe(Schema.brand("MembershipId"))
export type MembershipId = typeof MembershipId.Type
