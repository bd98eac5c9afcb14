import { AdminTable } from "@club/core"
import { tag } from "../shared/endpointParts.ts"
import { AdminCreateInput, AdminDto, AdminInput } from "../shared/Dto.ts"
import { recordEndpoints } from "./RecordGroup.ts"

export class AdminsGroup extends recordEndpoints("admins", {
  table: AdminTable,
  prefix: "/admins",
  dtos: { answer: AdminDto, create: AdminCreateInput, update: AdminInput },
  texts: {
    create: {
      summary: "Create an admin record",
      description: "A supplied `id` becomes the record's id (409 when taken)."
    },
    all: { summary: "List admin records", description: "Every admin record.", success: "Every admin record." },
    get: {
      summary: "Read an admin record",
      description: "The admin record with this id; 404 `Admin not found` when there is none."
    },
    update: {
      summary: "Update an admin record",
      description: "Replaces the name when present and not null; 404 when there is no such record."
    },
    delete: {
      summary: "Delete an admin record",
      description: "404 when there is no such record. A user linked to it keeps its role and loses the link.",
      success: "Deleted; a user linked to it keeps its role."
    }
  }
}).annotateMerge(tag(
  "Admins",
  "The admin records ADMIN users are linked to. Not in the seed; CONTRACT.md gives them."
)) {}
