import type { SessionDto, SessionInput } from "@club/contract/rest"
import { Effect } from "effect"
import type { RestClient } from "../../rest/RestClient.ts"
import { checkRequest } from "../checkRequest.ts"
import type { Plain } from "../Plain.ts"
import { run } from "../run.ts"

export type SessionFields = Plain<typeof SessionInput.Type>

/** `/session/...`: a coach plans sessions; coaches and athletes read them. */
export interface SessionsApi {
  /** `POST /session/create` (Coach): the stored session. */
  create(session: SessionFields): Promise<SessionDto>
  /** `GET /session/all` (Coach, Athlete). */
  all(): Promise<ReadonlyArray<SessionDto>>
  /** `GET /session/{id}` (Coach, Athlete). */
  get(id: number): Promise<SessionDto>
  /** `PUT /session/update/{id}` (Coach): applies only `duree`, `athleteIds` and `activiteIds`, each when given. */
  update(id: number, session: SessionFields): Promise<void>
  /** `DELETE /session/delete/{id}` (Coach): `Session deleted successfully`. */
  delete(id: number): Promise<string>
}

export const sessionsOf = (rest: RestClient): SessionsApi => ({
  create: (session) =>
    run(checkRequest("sessions", "create", { payload: session }).pipe(Effect.flatMap(rest.sessions.create))),
  all: () => run(rest.sessions.all()),
  get: (id) => run(checkRequest("sessions", "get", { params: { id } }).pipe(Effect.flatMap(rest.sessions.get))),
  update: (id, session) =>
    run(checkRequest("sessions", "update", { params: { id }, payload: session }).pipe(Effect.flatMap(rest.sessions.update))),
  delete: (id) => run(checkRequest("sessions", "delete", { params: { id } }).pipe(Effect.flatMap(rest.sessions.delete)))
})
