import type { AdminDto, AdminInput } from "@club/contract/rest"
import { Effect } from "effect"
import type { RestClient } from "../../rest/RestClient.ts"
import { checkRequest } from "../checkRequest.ts"
import type { Plain } from "../Plain.ts"
import { run } from "../run.ts"

export type AdminFields = Plain<typeof AdminInput.Type>

/** `/admins/...` (Admin). */
export interface AdminsApi {
  /** `POST /admins/create`. */
  create(admin: AdminFields): Promise<AdminDto>
  /** `GET /admins/all`. */
  all(): Promise<ReadonlyArray<AdminDto>>
  /** `GET /admins/{id}`: 404 `Admin not found`. */
  get(id: number): Promise<AdminDto>
  /** `PUT /admins/update/{id}`. */
  update(id: number, admin: AdminFields): Promise<AdminDto>
  /** `DELETE /admins/delete/{id}`. */
  delete(id: number): Promise<void>
}

export const adminsOf = (rest: RestClient): AdminsApi => ({
  create: (admin) => run(checkRequest("admins", "create", { payload: admin }).pipe(Effect.flatMap(rest.admins.create))),
  all: () => run(rest.admins.all()),
  get: (id) => run(checkRequest("admins", "get", { params: { id } }).pipe(Effect.flatMap(rest.admins.get))),
  update: (id, admin) =>
    run(checkRequest("admins", "update", { params: { id }, payload: admin }).pipe(Effect.flatMap(rest.admins.update))),
  delete: (id) => run(checkRequest("admins", "delete", { params: { id } }).pipe(Effect.flatMap(rest.admins.delete)))
})
