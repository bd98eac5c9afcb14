import type { ActiviteDto, ActiviteInput } from "@club/contract/rest"
import { Effect } from "effect"
import type { RestClient } from "../../rest/RestClient.ts"
import { checkRequest } from "../checkRequest.ts"
import type { Plain } from "../Plain.ts"
import { run } from "../run.ts"

export type ActivityFields = Plain<typeof ActiviteInput.Type>

/** `/activite/...`: a coach fills sessions with activities. Answers keep the seed's `id: null`. */
export interface ActivitiesApi {
  /** `POST /activite/create` (Coach): `Activity created`. `sessionId` must name an existing session. */
  create(activity: ActivityFields): Promise<string>
  /** `POST /activite/update/{id}` (Coach): `Activity modified`. */
  update(id: number, activity: ActivityFields): Promise<string>
  /** `DELETE /activite/delete/{id}` (Coach): `Activity deleted`. */
  delete(id: number): Promise<string>
  /** `GET /activite/{id}` (Coach, Athlete). */
  get(id: number): Promise<ActiviteDto>
  /** `GET /activite/all` (Coach, Athlete). */
  all(): Promise<ReadonlyArray<ActiviteDto>>
  /** `GET /activite/theme/{theme}` (Coach, Athlete): exact match; `[]` when none. */
  byTheme(theme: string): Promise<ReadonlyArray<ActiviteDto>>
}

export const activitiesOf = (rest: RestClient): ActivitiesApi => ({
  create: (activity) =>
    run(checkRequest("activities", "create", { payload: activity }).pipe(Effect.flatMap(rest.activities.create))),
  update: (id, activity) =>
    run(
      checkRequest("activities", "update", { params: { id }, payload: activity }).pipe(
        Effect.flatMap(rest.activities.update)
      )
    ),
  delete: (id) =>
    run(checkRequest("activities", "delete", { params: { id } }).pipe(Effect.flatMap(rest.activities.delete))),
  get: (id) => run(checkRequest("activities", "get", { params: { id } }).pipe(Effect.flatMap(rest.activities.get))),
  all: () => run(rest.activities.all()),
  byTheme: (theme) =>
    run(checkRequest("activities", "byTheme", { params: { theme } }).pipe(Effect.flatMap(rest.activities.byTheme)))
})
