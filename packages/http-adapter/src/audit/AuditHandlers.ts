import { AuditService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** `GET /audit`: every failure is its category's problem. */
export const AuditHandlers = HttpApiBuilder.group(
  ServedApi,
  "audit",
  Effect.fn(function*(handlers) {
    const audit = yield* AuditService
    return handlers.handle("audit", ({ query }) => audit.list(query).pipe(problems))
  })
)
