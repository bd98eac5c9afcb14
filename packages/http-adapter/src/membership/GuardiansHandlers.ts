import { GuardianService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { problems } from "../shared/problems.ts"
import { ServedApi } from "../ServedApi.ts"

/** Issue 41's guardians under `/guardians`: every failure is its category's problem. */
export const GuardiansHandlers = HttpApiBuilder.group(
  ServedApi,
  "guardians",
  Effect.fn(function*(handlers) {
    const guardians = yield* GuardianService
    return handlers
      .handle("linkGuardian", ({ params }) => guardians.link(params.id, params.athleteId).pipe(problems))
      .handle("unlinkGuardian", ({ params }) => guardians.unlink(params.id, params.athleteId).pipe(problems))
      .handle("guardedAthletes", ({ params }) => guardians.athletesOf(params.id).pipe(problems))
      .handle("athleteGuardians", ({ query }) => guardians.guardiansOf(query.athleteId).pipe(problems))
  })
)
