import { UserId } from "@club/core"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { created, idempotent, listOf, noContent, tag } from "../shared/endpointParts.ts"
import { UserCreateInput, UserDto, UserUpdateInput } from "../shared/Dto.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"
import { Idempotency } from "../shared/Idempotency.ts"

export class UsersGroup extends HttpApiGroup.make("users").add(
  HttpApiEndpoint.post("create", "/users/create", {
    payload: UserCreateInput,
    success: created(UserDto),
    error: [InvalidRequest, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create a user",
    `Creates a user who can log in, linked to a record of its role. 409 when the name is taken or the record is linked to another user. ${idempotent}`,
    "user.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("all", "/users/all", {
    success: listOf(UserDto, "Every user."),
    error: Forbidden
  }).middleware(Paged)
    .annotateMerge(operation("List users", "Every user.", "user.list")),
  HttpApiEndpoint.get("get", "/users/:id", {
    params: { id: pathId(UserId) },
    success: UserDto,
    error: [NotFound, Forbidden]
  })
    .annotateMerge(operation("Read a user", "The user with this id; 404 when there is none.", "user.read")),
  HttpApiEndpoint.put("update", "/users/update/:id", {
    params: { id: pathId(UserId) },
    payload: UserUpdateInput,
    success: UserDto,
    error: [InvalidRequest, NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Update a user",
    `Replaces each field present. A role or password change ends the tokens issued before it. 409 for a name taken, a record linked to another user, or the demotion of the last ADMIN user. ${idempotent}`,
    "user.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/users/delete/:id", {
    params: { id: pathId(UserId) },
    success: noContent("Deleted."),
    error: [NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Delete a user",
    `404 when there is no such user; 409 for the last ADMIN user. ${idempotent}`,
    "user.delete"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Users",
  "The users who log in, each with a role (ADMIN, COACH, ATHLETE) and linked to a record of that kind. Not in the seed; CONTRACT.md gives them."
)) {}
