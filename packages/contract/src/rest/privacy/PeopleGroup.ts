import { AthleteId, ErasedPerson, PersonExport, UserId } from "@club/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Authentication } from "../shared/Authentication.ts"
import { documented } from "../shared/documented.ts"
import { idempotent, tag } from "../shared/endpointParts.ts"
import { Idempotency } from "../shared/Idempotency.ts"
import { operation } from "../shared/operation.ts"
import { pathId } from "../shared/pathId.ts"
import { Forbidden, NotFound } from "../shared/Problems.ts"
import { RawInput } from "../shared/RawInput.ts"
import { strictBodies } from "../shared/strictBodies.ts"

export const PersonExportDto = documented(
  PersonExport,
  "PersonExport",
  "Everything the service holds about a person, as pages `{ section, rows }` in order: `user` (never the password hash), `athlete`, `coach`, `admin`, `memberships`, `guardianOf`, `guardians`, `sessionsInvitedTo`, `replies`, `marks`, `markHistory`, `notices`, `noticePreferences`, `feedToken` (when it was issued, never the token), `events` (docs/privacy.md). A section longer than a page comes as several pages. Rows carry the stored columns.",
  [[{ section: "user", rows: [{ id: 12, name: "lea", email: "lea@club.test", role: "ATHLETE" }] }, {
    section: "replies",
    rows: [{ session_id: 7, athlete_id: 3, answer: "no", reason: "exam", state: "declined" }]
  }]]
)

export const ErasedPersonDto = documented(
  Schema.Struct(ErasedPerson.fields),
  "ErasedPerson",
  "An erasure: the user and the records it linked, and when it was done (epoch milliseconds); `userId` null for an athlete no user links, erased alone. Ids only.",
  [{ userId: 12, athleteId: 3, coachId: null, adminId: null, erasedAtMs: 1795000000000 }, {
    userId: null,
    athleteId: 4,
    coachId: null,
    adminId: null,
    erasedAtMs: 1795000000000
  }]
)

const userParam = { id: pathId(UserId).annotate({ description: "The person's user id." }) }
const athleteParam = {
  id: pathId(AthleteId).annotate({
    description: "The person's athlete record: its user's person when one links it, else the athlete alone."
  })
}

const erasureEffects =
  "Removes or replaces the person's texts everywhere (name, email, reasons, events' names and reasons, stored answers), ends their logins and tokens, keeps their ids so that counts stay right (docs/privacy.md), and tells integrators with a `personErased` event. Erasing again answers the first erasure and changes nothing."

/** A person's data (issue 43, docs/privacy.md): their export, and their erasure. */
export class PeopleGroup extends HttpApiGroup.make("people").add(
  HttpApiEndpoint.get("export", "/people/:id/export", {
    params: userParam,
    success: PersonExportDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "A person's data",
    "Everything the service holds about the person of user `{id}` (admins, and the person), written as it is read, a page at a time: no bound on its length. 404 when there is no such user.",
    "person.export"
  )),
  HttpApiEndpoint.post("erase", "/people/:id/erase", {
    params: userParam,
    success: ErasedPersonDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Erase a person",
    `${erasureEffects} 404 when there is no such user. ${idempotent}`,
    "person.erase"
  )).middleware(Idempotency),
  HttpApiEndpoint.get("exportAthlete", "/people/athletes/:id/export", {
    params: athleteParam,
    success: PersonExportDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "An athlete's data",
    "Everything the service holds about the person of athlete `{id}` (admins, the athlete, and its guardians: a child without a login), as `GET /people/{id}/export` writes it: the person of the user that links the athlete when one does, else the athlete alone (no user: a user's sections have no rows). 404 when there is no such athlete.",
    "athletePerson.export"
  )),
  HttpApiEndpoint.post("eraseAthlete", "/people/athletes/:id/erase", {
    params: athleteParam,
    success: ErasedPersonDto,
    error: [NotFound, Forbidden]
  }).annotateMerge(operation(
    "Erase an athlete's person",
    `The erasure of the person of athlete \`{id}\`: of the user that links it when one does (the same as \`POST /people/{id}/erase\`, the same answer), else of the athlete alone (\`userId\` null). ${erasureEffects} 404 when there is no such athlete. ${idempotent}`,
    "athletePerson.erase"
  )).middleware(Idempotency)
).middleware(RawInput).middleware(Authentication).annotate(...strictBodies).annotateMerge(tag(
  "People: export and erasure",
  "Issue 43: a person's data, exported or erased (docs/privacy.md)."
)) {}
