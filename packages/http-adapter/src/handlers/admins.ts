import { AdminCreate, AdminService, AdminUpdate } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ClubApi } from "@club/contract/rest"
import { problems, problemsWithReason } from "./problems.ts"
import { RecordReads } from "./recordReads.ts"
import { toAdminDto } from "./toDto.ts"

const adminNotFound = problemsWithReason("Admin not found")

export const AdminsHandlers = HttpApiBuilder.group(
  ClubApi,
  "admins",
  Effect.fn(function*(handlers) {
    const admins = yield* AdminService
    const reads = yield* RecordReads
    return handlers
      .handle(
        "create",
        ({ payload }) =>
          admins.create(new AdminCreate({ id: payload.id ?? null, name: payload.name ?? null })).pipe(
            Effect.map(toAdminDto),
            problems
          )
      )
      .handle("all", () => admins.list().pipe(Effect.map((all) => all.map(toAdminDto)), problems))
      .handle("get", ({ params }) => reads.admin(params.id).pipe(adminNotFound))
      .handle(
        "update",
        ({ params, payload }) =>
          admins.update(params.id, new AdminUpdate(payload.name == null ? {} : { name: payload.name })).pipe(
            Effect.map(toAdminDto),
            adminNotFound
          )
      )
      .handle("delete", ({ params }) => admins.delete(params.id).pipe(adminNotFound))
  })
)
