import { ActivityWrite, ActivityService } from "@club/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ActivityFailed, NotFoundEmpty, toActivityDto, toCoreInput } from "@club/contract/rest"
import { isNotForbidden, isNotFound, pinned } from "../shared/problems.ts"
import { RecordReads } from "../shared/RecordReads.ts"
import { ServedApi } from "../ServedApi.ts"

/** Create, update and delete fail with the seed's 500 `Error: <message>`; a role refusal stays a 403. */
const activityFailure = pinned(isNotForbidden, (error) => new ActivityFailed({ message: error.message }))

/** Reads fail with the seed's empty 404. */
const emptyNotFound = pinned(isNotFound, () => new NotFoundEmpty())

export const ActivitiesHandlers = HttpApiBuilder.group(
  ServedApi,
  "activities",
  Effect.fn(function*(handlers) {
    const activities = yield* ActivityService
    const reads = yield* RecordReads
    return handlers
      .handle("create", ({ payload }) =>
        activities.create(toCoreInput(ActivityWrite, payload)).pipe(
          Effect.map((activity) => ({ message: "Activity created" as const, id: activity.id })),
          activityFailure
        ))
      .handle(
        "delete",
        ({ params }) => activities.delete(params.id).pipe(Effect.as("Activity deleted" as const), activityFailure)
      )
      .handle(
        "update",
        ({ params, payload }) =>
          // The seed stores a null or absent duree as 0 on update; on create it stays null.
          activities.update(params.id, toCoreInput(ActivityWrite, { ...payload, duree: payload.duree ?? 0 })).pipe(
            Effect.as("Activity modified" as const),
            activityFailure
          )
      )
      .handle("all", () => activities.list().pipe(Effect.map((all) => all.map(toActivityDto)), emptyNotFound))
      .handle("byTheme", ({ params }) =>
        activities.listByTheme(params.theme).pipe(
          Effect.map((all) => all.map(toActivityDto)),
          emptyNotFound
        ))
      .handle("get", ({ params }) => reads.activity(params.id).pipe(emptyNotFound))
  })
)
