import type { AthleteDto, AthleteInput, Summary } from "@club/contract/rest"
import { Effect } from "effect"
import type { RestClient } from "../../rest/RestClient.ts"
import { checkRequest } from "../checkRequest.ts"
import type { Plain } from "../Plain.ts"
import { run } from "../run.ts"

export type AthleteFields = Plain<typeof AthleteInput.Type>

/**
 * `/athletes/...`: the athlete records, and the session queries the seed serves under the same
 * prefix (the contract's `schedule` group). Dates are ISO calendar dates, `2026-01-31`.
 */
export interface AthletesApi {
  /** `POST /athletes/create` (Admin). */
  create(athlete: AthleteFields): Promise<AthleteDto>
  /** `POST /athletes/all` (Admin, Coach, Athlete). */
  all(): Promise<ReadonlyArray<AthleteDto>>
  /** `GET /athletes/{id}` (Admin, Coach, Athlete). */
  get(id: number): Promise<AthleteDto>
  /** `PUT /athletes/{id}` (Admin, or the athlete's own user). `sessionIds`, when given, replaces the athlete's sessions. */
  update(id: number, athlete: AthleteFields): Promise<AthleteDto>
  /** `DELETE /athletes/{id}` (Admin). */
  delete(id: number): Promise<void>
  /** `GET /athletes/athlete/{id}/session`: the athlete's sessions. */
  sessions(athleteId: number): Promise<ReadonlyArray<Summary>>
  /** `GET /athletes/athletes/session`: every session. */
  allSessions(): Promise<ReadonlyArray<Summary>>
  /** `GET /athletes/athletes/session/{id}/activities`: the session's activities; `[]` for an unknown session. */
  activitiesOfSession(sessionId: number): Promise<ReadonlyArray<Summary>>
  /** `GET /athletes/athletes/{id}/session/after/{date}`: the athlete's sessions after the start of `date`. */
  sessionsAfter(athleteId: number, date: string): Promise<ReadonlyArray<Summary>>
  /** `GET /athletes/athletes/{id}/session/between/{startDate}/{endDate}`: both bounds exclusive. */
  sessionsBetween(athleteId: number, startDate: string, endDate: string): Promise<ReadonlyArray<Summary>>
}

export const athletesOf = (rest: RestClient): AthletesApi => ({
  create: (athlete) =>
    run(checkRequest("athletes", "create", { payload: athlete }).pipe(Effect.flatMap(rest.athletes.create))),
  all: () => run(rest.athletes.all()),
  get: (id) => run(checkRequest("athletes", "get", { params: { id } }).pipe(Effect.flatMap(rest.athletes.get))),
  update: (id, athlete) =>
    run(checkRequest("athletes", "update", { params: { id }, payload: athlete }).pipe(Effect.flatMap(rest.athletes.update))),
  delete: (id) => run(checkRequest("athletes", "delete", { params: { id } }).pipe(Effect.flatMap(rest.athletes.delete))),
  sessions: (athleteId) =>
    run(
      checkRequest("schedule", "sessionsOfAthlete", { params: { id: athleteId } }).pipe(
        Effect.flatMap(rest.schedule.sessionsOfAthlete)
      )
    ),
  allSessions: () => run(rest.schedule.allSessions()),
  activitiesOfSession: (sessionId) =>
    run(
      checkRequest("schedule", "activitiesOfSession", { params: { id: sessionId } }).pipe(
        Effect.flatMap(rest.schedule.activitiesOfSession)
      )
    ),
  sessionsAfter: (athleteId, date) =>
    run(
      checkRequest("schedule", "sessionsAfter", { params: { id: athleteId, date } }).pipe(
        Effect.flatMap(rest.schedule.sessionsAfter)
      )
    ),
  sessionsBetween: (athleteId, startDate, endDate) =>
    run(
      checkRequest("schedule", "sessionsBetween", { params: { id: athleteId, startDate, endDate } }).pipe(
        Effect.flatMap(rest.schedule.sessionsBetween)
      )
    )
})
