import { UserCreate, UserService, UserUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { problems, problemsWithReason } from "./problems.ts"
import { RecordReads } from "./recordReads.ts"
import { toUserDto } from "./toDto.ts"

const userNotFound = problemsWithReason("User not found")

export const UsersHandlers = HttpApiBuilder.group(
  ClubApi,
  "users",
  Effect.fn(function*(handlers) {
    const users = yield* UserService
    const reads = yield* RecordReads
    return handlers
      .handle("create", ({ payload }) =>
        users.create(
          new UserCreate({
            name: payload.name,
            email: payload.email ?? null,
            role: payload.role,
            password: payload.password,
            coachId: payload.coachId ?? null,
            athleteId: payload.athleteId ?? null,
            adminId: payload.adminId ?? null
          })
        ).pipe(Effect.map(toUserDto), problems))
      .handle("all", () => users.list().pipe(Effect.map((all) => all.map(toUserDto)), problems))
      .handle("get", ({ params }) => reads.user(params.id).pipe(userNotFound))
      .handle("update", ({ params, payload }) => {
        const { adminId, athleteId, coachId, ...fields } = payload
        return users.update(
          params.id,
          new UserUpdate({
            ...fields,
            ...(coachId == null ? {} : { coachId }),
            ...(athleteId == null ? {} : { athleteId }),
            ...(adminId == null ? {} : { adminId })
          })
        ).pipe(Effect.map(toUserDto), userNotFound)
      })
      .handle("delete", ({ params }) => users.delete(params.id).pipe(userNotFound))
  })
)
