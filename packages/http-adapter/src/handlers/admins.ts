import { AdminCreate, AdminService, AdminUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toCoreInput } from "@club/contract/rest"
import { problems, problemsWithReason } from "./problems.ts"
import { RecordReads } from "./recordReads.ts"
import { ServedApi } from "../ServedApi.ts"

const adminNotFound = problemsWithReason("Admin not found")

export const AdminsHandlers = HttpApiBuilder.group(
  ServedApi,
  "admins",
  Effect.fn(function*(handlers) {
    const admins = yield* AdminService
    const reads = yield* RecordReads
    return handlers
      .handle(
        "create",
        ({ payload }) =>
          admins.create(toCoreInput(AdminCreate, payload)).pipe(
            problems
          )
      )
      .handle("all", () => admins.list().pipe(problems))
      .handle("get", ({ params }) => reads.admin(params.id).pipe(adminNotFound))
      .handle(
        "update",
        ({ params, payload }) =>
          admins.update(params.id, toCoreInput(AdminUpdate, payload)).pipe(
            adminNotFound
          )
      )
      .handle("delete", ({ params }) => admins.delete(params.id).pipe(adminNotFound))
  })
)
