import { ActivityId, ShortText } from "@club/core"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ActivityCreatedWithLocation } from "./ActivityCreated.ts"
import { Authentication } from "../shared/Authentication.ts"
import { idempotent, listOf, tag, text } from "../shared/endpointParts.ts"
import { ActivityDto, ActivityInput } from "../shared/Dto.ts"
import { Forbidden } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { InputFailure } from "../shared/RequestErrors.ts"
import { ActivityFailedText, NotFoundEmptyBody } from "../shared/SeedFailures.ts"

export class ActivitiesGroup extends HttpApiGroup.make("activities").add(
  HttpApiEndpoint.post("create", "/activite/create", {
    payload: ActivityInput,
    success: ActivityCreatedWithLocation,
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotateMerge(operation(
    "Create an activity",
    `Creates an activity in the session \`sessionId\` names; \`Location\` gives its path, and so its id. Any failure (bad input, an unknown session) is the seed's 500 \`text/plain\` \`Error: <what was wrong>\`. ${idempotent}`,
    "activity.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/activite/delete/:id", {
    params: { id: pathId(ActivityId) },
    success: text(200, "Activity deleted", "Deleted (the seed's plain text)."),
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotateMerge(operation(
    "Delete an activity",
    `Any failure (an unknown activity, a malformed id) is the seed's 500 \`text/plain\` \`Error: <what was wrong>\`. ${idempotent}`,
    "activity.delete"
  )).middleware(Idempotency),
  HttpApiEndpoint.post("update", "/activite/update/:id", {
    params: { id: pathId(ActivityId) },
    payload: ActivityInput,
    success: text(200, "Activity modified", "Modified (the seed's plain text)."),
    error: [ActivityFailedText, Forbidden]
  }).annotate(InputFailure, "activityText").annotateMerge(operation(
    "Update an activity",
    `Replaces the activity's name, theme, duree (null or absent: 0), dataActivite and session (\`sessionId\`). Any failure (bad input, an unknown activity or session) is the seed's 500 \`text/plain\` \`Error: <what was wrong>\`. ${idempotent}`,
    "activity.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("all", "/activite/all", {
    success: listOf(ActivityDto, "Every activity."),
    error: [NotFoundEmptyBody, Forbidden]
  }).middleware(Paged).annotateMerge(
    operation("List activities", "Every activity. A failure to read them is the seed's empty 404.", "activity.read")
  ),
  HttpApiEndpoint.get("byTheme", "/activite/theme/:theme", {
    params: { theme: ShortText.annotate({ description: "The theme, matched exactly.", examples: ["cardio"] }) },
    success: listOf(ActivityDto, "The activities of this theme; empty when none."),
    error: [NotFoundEmptyBody, Forbidden]
  }).middleware(Paged).annotateMerge(
    operation(
      "List activities by theme",
      "The activities whose theme equals the path value exactly (an empty list when none).",
      "activity.read"
    )
  ),
  HttpApiEndpoint.get("get", "/activite/:id", {
    params: { id: pathId(ActivityId) },
    success: ActivityDto,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotateMerge(
    operation(
      "Read an activity",
      "The activity with this id (its `id` member is null, as the seed says); the seed's empty 404 when there is none.",
      "activity.read"
    )
  )
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Activities",
  "The activities of sessions (the seed's ActiviteDTO). Their writes answer the seed's plain texts, and any of their failures the seed's 500 `Error: ...`; their reads answer an empty 404."
)) {}
