import { CoachTable } from "@club/core"
import { tag } from "../shared/endpointParts.ts"
import { CoachCreateInput, CoachDto, CoachInput } from "../shared/Dto.ts"
import { Conflict, Forbidden, NotFound } from "../shared/Problems.ts"
import { recordEndpoints } from "./RecordGroup.ts"

const coachEndpoints = <const Name extends string>(name: Name, prefix: "" | "/coaches") => {
  const where = prefix === "" ? "" : " (also served without the `/coaches` prefix, as the seed spells it)"
  return recordEndpoints(name, {
    table: CoachTable,
    prefix,
    dtos: { answer: CoachDto, create: CoachCreateInput, update: CoachInput },
    texts: {
      create: {
        summary: "Create a coach",
        description: `A supplied \`id\` becomes the coach's id (409 when taken)${where}.`
      },
      all: { summary: "List coaches", description: `Every coach${where}.`, success: "Every coach." },
      get: {
        summary: "Read a coach",
        description: `The coach with this id; 404 \`Coach not found\` when there is none${where}.`
      },
      update: {
        summary: "Update a coach",
        description: `Replaces the name when present and not null; 404 \`Coach not found\`${where}.`
      },
      delete: {
        summary: "Delete a coach",
        description: `404 \`Coach not found\`; 409 while the coach still owns sessions (nothing is deleted)${where}.`,
        success: "Deleted."
      }
    },
    deleteErrors: [NotFound, Conflict, Forbidden]
  })
}

/** The seed gives the coach paths without a prefix; CONTRACT.md serves them there and under `/coaches`. */
export class CoachesGroup extends coachEndpoints("coaches", "/coaches").annotateMerge(tag(
  "Coaches",
  "Coaches (the seed's CoachDTO), under `/coaches`: the same operations as the seed's unprefixed paths."
)) {}
export class RootCoachesGroup extends coachEndpoints("rootCoaches", "").annotateMerge(tag(
  "Coaches, seed paths",
  "The coach operations at the paths the seed gives them, without a prefix (`/create`, `/all`, `/{id}`, ...). The same operations are served under `/coaches`."
)) {}
