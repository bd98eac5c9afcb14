import { Schema } from "effect"
import { CoachId } from "../shared/Ids.ts"
import { SuppliedCoachId } from "../shared/SuppliedId.ts"
import { recordTable } from "./RecordTable.ts"
import { ShortText } from "../shared/Text.ts"

export class Coach extends Schema.Class<Coach>("Coach")({
  id: CoachId,
  name: Schema.NullOr(ShortText)
}) {}

export class CoachCreate extends Schema.Class<CoachCreate>("CoachCreate")({
  id: Schema.NullOr(SuppliedCoachId),
  name: Schema.NullOr(ShortText)
}) {}

/** The seed replaces `name` only when it is present: `undefined` keeps the stored name. */
export class CoachUpdate extends Schema.Class<CoachUpdate>("CoachUpdate")({
  name: Schema.optionalKey(Schema.NullOr(ShortText))
}) {}

/** Coaches are created, read and renamed by the generic record repository; their delete is their own. */
export const CoachTable = recordTable({
  entity: "Coach",
  table: "coaches",
  record: Coach,
  create: CoachCreate,
  update: CoachUpdate,
  operations: {
    create: "coach.create",
    list: "coach.read",
    read: "coach.read",
    update: "coach.update",
    delete: "coach.delete"
  },
  userLink: "coachId",
  example: { id: 2, name: "Camille Durand" }
})
