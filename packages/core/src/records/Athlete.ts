import { Schema } from "effect"
import { AthleteId, SessionId } from "../shared/Ids.ts"
import { SuppliedAthleteId } from "../shared/SuppliedId.ts"
import { recordTable } from "./RecordTable.ts"
import { BoundedArray, ShortText } from "../shared/Text.ts"

export class Athlete extends Schema.Class<Athlete>("Athlete")({
  id: AthleteId,
  name: Schema.NullOr(ShortText),
  categorie: Schema.NullOr(ShortText),
  niveau: Schema.NullOr(ShortText)
}) {}

/** `id`, when given, is used only if no athlete has it (CONTRACT.md "Identifiers"). */
export class AthleteCreate extends Schema.Class<AthleteCreate>("AthleteCreate")({
  id: Schema.NullOr(SuppliedAthleteId),
  name: Schema.NullOr(ShortText),
  categorie: Schema.NullOr(ShortText),
  niveau: Schema.NullOr(ShortText)
}) {}

/** Replaces name, categorie and niveau; replaces the athlete's sessions when `sessionIds` is given. */
export class AthleteUpdate extends Schema.Class<AthleteUpdate>("AthleteUpdate")({
  name: Schema.NullOr(ShortText),
  categorie: Schema.NullOr(ShortText),
  niveau: Schema.NullOr(ShortText),
  sessionIds: Schema.NullOr(BoundedArray(SessionId))
}) {}

/** Athletes are created and read by the generic record repository; their update and delete are their own. */
export const AthleteTable = recordTable({
  entity: "Athlete",
  table: "athletes",
  record: Athlete,
  create: AthleteCreate,
  update: AthleteUpdate,
  operations: {
    create: "athlete.create",
    list: "athlete.list",
    read: "athlete.read",
    update: "athlete.update",
    delete: "athlete.delete"
  },
  userLink: "athleteId",
  example: { id: 3, name: "Alex Martin", categorie: "Senior", niveau: "Regional" }
})
