import type { UserCreateInput, UserDto, UserUpdateInput } from "@club/contract/rest"
import { Effect } from "effect"
import type { RestClient } from "../../rest/RestClient.ts"
import { checkRequest } from "../checkRequest.ts"
import type { Plain } from "../Plain.ts"
import { run } from "../run.ts"

export type NewUser = Plain<typeof UserCreateInput.Type>
export type UserChanges = Plain<typeof UserUpdateInput.Type>

/** `/users/...` (Admin; a user may also read itself). */
export interface UsersApi {
  /**
   * `POST /users/create`: links the user to `coachId`/`athleteId`/`adminId` for its role, or to a
   * new record with the user's name when none is given.
   */
  create(user: NewUser): Promise<UserDto>
  /** `GET /users/all`. */
  all(): Promise<ReadonlyArray<UserDto>>
  /** `GET /users/{id}`. */
  get(id: number): Promise<UserDto>
  /** `PUT /users/update/{id}`: only the fields given change; `email: null` clears it. */
  update(id: number, changes: UserChanges): Promise<UserDto>
  /** `DELETE /users/delete/{id}`. */
  delete(id: number): Promise<void>
}

export const usersOf = (rest: RestClient): UsersApi => ({
  create: (user) => run(checkRequest("users", "create", { payload: user }).pipe(Effect.flatMap(rest.users.create))),
  all: () => run(rest.users.all()),
  get: (id) => run(checkRequest("users", "get", { params: { id } }).pipe(Effect.flatMap(rest.users.get))),
  update: (id, changes) =>
    run(checkRequest("users", "update", { params: { id }, payload: changes }).pipe(Effect.flatMap(rest.users.update))),
  delete: (id) => run(checkRequest("users", "delete", { params: { id } }).pipe(Effect.flatMap(rest.users.delete)))
})
