import { UserCreate, UserService, UserUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toCoreInput } from "@club/contract/rest"
import { problems, problemsWithReason } from "../shared/problems.ts"
import { RecordReads } from "../shared/RecordReads.ts"
import { ServedApi } from "../ServedApi.ts"

const userNotFound = problemsWithReason("User not found")

export const UsersHandlers = HttpApiBuilder.group(
  ServedApi,
  "users",
  Effect.fn(function*(handlers) {
    const users = yield* UserService
    const reads = yield* RecordReads
    return handlers
      .handle(
        "create",
        ({ payload }) => users.create(toCoreInput(UserCreate, payload)).pipe(problems)
      )
      .handle("all", () => users.list().pipe(problems))
      .handle("get", ({ params }) => reads.user(params.id).pipe(userNotFound))
      .handle("update", ({ params, payload }) =>
        // `email: null` clears the address; a null link counts as absent.
        users.update(params.id, toCoreInput(UserUpdate, payload, { keepNull: ["email"] })).pipe(
          userNotFound
        ))
      .handle("delete", ({ params }) => users.delete(params.id).pipe(userNotFound))
  })
)
