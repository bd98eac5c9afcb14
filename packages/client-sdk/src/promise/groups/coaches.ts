import type { CoachDto, CoachInput } from "@club/contract/rest"
import { Effect } from "effect"
import type { RestClient } from "../../rest/RestClient.ts"
import { checkRequest } from "../checkRequest.ts"
import type { Plain } from "../Plain.ts"
import { run } from "../run.ts"

export type CoachFields = Plain<typeof CoachInput.Type>

/** `/coaches/...` (the seed's unprefixed coach paths serve the same operations). */
export interface CoachesApi {
  /** `POST /coaches/create` (Admin). */
  create(coach: CoachFields): Promise<CoachDto>
  /** `GET /coaches/all` (Admin, Coach). */
  all(): Promise<ReadonlyArray<CoachDto>>
  /** `GET /coaches/{id}` (Admin, Coach): 404 `Coach not found`. */
  get(id: number): Promise<CoachDto>
  /** `PUT /coaches/update/{id}` (Admin): `name` is replaced only when given. */
  update(id: number, coach: CoachFields): Promise<CoachDto>
  /** `DELETE /coaches/delete/{id}` (Admin): 409 while the coach still owns sessions. */
  delete(id: number): Promise<void>
}

export const coachesOf = (rest: RestClient): CoachesApi => ({
  create: (coach) => run(checkRequest("coaches", "create", { payload: coach }).pipe(Effect.flatMap(rest.coaches.create))),
  all: () => run(rest.coaches.all()),
  get: (id) => run(checkRequest("coaches", "get", { params: { id } }).pipe(Effect.flatMap(rest.coaches.get))),
  update: (id, coach) =>
    run(checkRequest("coaches", "update", { params: { id }, payload: coach }).pipe(Effect.flatMap(rest.coaches.update))),
  delete: (id) => run(checkRequest("coaches", "delete", { params: { id } }).pipe(Effect.flatMap(rest.coaches.delete)))
})
