import { AthleteId } from "@club/core"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { created, idempotent, listOf, noContent, tag } from "../shared/endpointParts.ts"
import { AthleteCreateInput, AthleteDto, AthleteInput } from "../shared/Dto.ts"
import { Conflict, Forbidden } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { InputFailure } from "../shared/RequestErrors.ts"
import { AthleteUpdateFailedBody, NotFoundEmptyBody } from "../shared/SeedFailures.ts"

export class AthletesGroup extends HttpApiGroup.make("athletes").add(
  HttpApiEndpoint.post("create", "/athletes/create", {
    payload: AthleteCreateInput,
    success: created(AthleteDto),
    error: [Conflict, Forbidden]
  }).annotateMerge(operation(
    "Create an athlete",
    `Stores name, categorie and niveau; a supplied \`id\` becomes the athlete's id (409 when taken). ${idempotent}`,
    "athlete.create"
  )).middleware(Idempotency),
  HttpApiEndpoint.post("all", "/athletes/all", {
    success: listOf(AthleteDto, "Every athlete."),
    error: Forbidden
  }).middleware(Paged)
    .annotateMerge(
      operation(
        "List athletes",
        "Every athlete. A POST that only reads, as the seed spells it; it takes no body.",
        "athlete.list"
      )
    ),
  HttpApiEndpoint.get("get", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    success: AthleteDto,
    error: [NotFoundEmptyBody, Forbidden]
  }).annotateMerge(
    operation("Read an athlete", "The athlete with this id; the seed's empty 404 when there is none.", "athlete.read")
  ),
  HttpApiEndpoint.put("update", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    payload: AthleteInput,
    success: AthleteDto,
    error: [AthleteUpdateFailedBody, Forbidden]
  }).annotate(InputFailure, "emptyNoContent").annotateMerge(operation(
    "Update an athlete",
    `Replaces name, categorie and niveau, and, when \`sessionIds\` is present, the athlete's sessions. Any failure (an unknown athlete or session id, bad input) is the seed's 204 with an empty body, and changes nothing. ${idempotent}`,
    "athlete.update"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("delete", "/athletes/:id", {
    params: { id: pathId(AthleteId) },
    success: noContent("Deleted, with the athlete's session memberships and any user link to it."),
    error: [NotFoundEmptyBody, Forbidden]
  }).annotateMerge(
    operation(
      "Delete an athlete",
      `The seed's empty 404 when there is no such athlete. ${idempotent}`,
      "athlete.delete"
    )
  )
    .middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotateMerge(tag(
  "Athletes",
  "Athletes (the seed's AthleteDTO). As the seed says, their answers fill only id, name, categorie and niveau."
)) {}
