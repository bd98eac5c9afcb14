import type { ClubApi, SessionInput } from "@club/contract/rest"
import type { Schema } from "effect"

type Groups = (typeof ClubApi)["groups"]
type ParamOf<G extends keyof Groups, E extends keyof Groups[G]["endpoints"], K extends string> =
  Groups[G]["endpoints"][E] extends { readonly "~Params": infer S extends Schema.Top }
    ? S["Type"] extends { readonly [_ in K]: infer A } ? A : never
    : never

/** The contract's branded values, as the Effect face's typed client expects them. */
export type SessionId = ParamOf<"sessions", "get", "id">
export type ActivityId = ParamOf<"activities", "get", "id">
export type AthleteId = ParamOf<"athletes", "get", "id">
export type CoachId = ParamOf<"coaches", "get", "id">
export type UserId = ParamOf<"users", "get", "id">
export type AdminId = ParamOf<"admins", "get", "id">
export type CalendarDate = ParamOf<"schedule", "sessionsAfter", "date">
export type LocalDateTime = NonNullable<(typeof SessionInput.Type)["creneau"]>

// Brands exist only in the types; the typed client still checks every value against the
// contract's schema when it encodes a request, so a bad one fails before anything is sent.
export const sessionId = (id: number) => id as SessionId
export const activityId = (id: number) => id as ActivityId
export const athleteId = (id: number) => id as AthleteId
export const coachId = (id: number) => id as CoachId
export const userId = (id: number) => id as UserId
export const adminId = (id: number) => id as AdminId
/** An ISO calendar date, `2026-01-31`. */
export const calendarDate = (date: string) => date as CalendarDate
/** A local date-time without offset, `2026-01-31T18:30:00`. */
export const localDateTime = (dateTime: string) => dateTime as LocalDateTime
