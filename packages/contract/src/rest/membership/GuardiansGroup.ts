import { AthleteId, Guardianship, GuardianshipBounds, UserId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { idempotent, listOf, noContent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { Paged } from "../shared/Paged.ts"
import { pathId } from "../shared/pathId.ts"
import { Conflict, Forbidden, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

export const GuardianshipDto = documented(
  Schema.Struct(Guardianship.fields),
  "Guardianship",
  "A user who answers for an athlete (a parent of a minor): the user replies for the athlete and reads its schedule; nothing else.",
  [{ userId: 12, athleteId: 7 }]
)

const userParam = { id: pathId(UserId).annotate({ description: "The guardian's user id." }) }
const athleteParam = { athleteId: pathId(AthleteId).annotate({ description: "The athlete's id." }) }

const gives =
  "A guardian (a user of any role, usually an ATHLETE user without an athlete record of its own) replies for the athlete (`PUT /attendance/athletes/{id}/replies/{sessionId}`, the reply recorded as written by the guardian's user) and reads its schedule as every user does; it does not update the athlete's record or read its figures. See docs/membership.md."

/** Issue 41's guardians under `/guardians`: who answers for which athlete (docs/membership.md, "Guardians"). */
export class GuardiansGroup extends HttpApiGroup.make("guardians").add(
  HttpApiEndpoint.put("linkGuardian", "/guardians/:id/athletes/:athleteId", {
    params: { ...userParam, ...athleteParam },
    success: GuardianshipDto,
    error: [NotFound, Conflict, Forbidden]
  }).annotateMerge(operation(
    "Link a guardian to an athlete",
    `Makes the user \`{id}\` a guardian of the athlete \`{athleteId}\`; linking again changes nothing (the same answer). 404 naming the user or the athlete when there is no such one (the user first). 409 when the user guards ${GuardianshipBounds.athletesPerGuardian} athletes already, or the athlete has ${GuardianshipBounds.guardiansPerAthlete} guardians already. ${gives} ${idempotent}`,
    "guardian.manage"
  )).middleware(Idempotency),
  HttpApiEndpoint.delete("unlinkGuardian", "/guardians/:id/athletes/:athleteId", {
    params: { ...userParam, ...athleteParam },
    success: noContent("Unlinked: the user's rights on the athlete ended with it."),
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Unlink a guardian from an athlete",
    `The user no longer answers for the athlete, from this request on. 404 when the user is not a guardian of the athlete. ${idempotent}`,
    "guardian.manage"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("guardedAthletes", "/guardians/:id/athletes", {
    params: userParam,
    success: listOf(
      GuardianshipDto,
      `The user's links, by athlete id: at most ${GuardianshipBounds.athletesPerGuardian}, as a user guards no more.`
    ),
    error: [NotFound, Forbidden]
  }).middleware(Paged).annotateMerge(operation(
    "The athletes a user answers for",
    `The links of the user \`{id}\`, by athlete id (at most ${GuardianshipBounds.athletesPerGuardian}). 404 when there is no such user.`,
    "guardian.read"
  )),
  // The athlete is a query parameter: a path `/guardians/athletes/{athleteId}` would be ambiguous
  // with `/guardians/{id}/athletes` (OpenAPI's no-ambiguous-paths).
  HttpApiEndpoint.get("athleteGuardians", "/guardians", {
    query: { athleteId: pathId(AthleteId).annotate({ description: "The athlete whose guardians are listed." }) },
    success: listOf(
      GuardianshipDto,
      `The athlete's links, by user id: at most ${GuardianshipBounds.guardiansPerAthlete}, as an athlete has no more.`
    ),
    error: [NotFound, Forbidden]
  }).middleware(Paged).annotateMerge(operation(
    "The guardians of an athlete",
    `The links of the athlete \`athleteId\`, by user id (at most ${GuardianshipBounds.guardiansPerAthlete}). 404 when there is no such athlete.`,
    "guardian.manage"
  ))
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "Guardians",
  "Issue 41: the users who answer for athletes (parents of minors), linked by admins."
)) {}
