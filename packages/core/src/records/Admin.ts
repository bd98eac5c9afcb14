import { Schema } from "effect"
import { AdminId } from "../shared/Ids.ts"
import { SuppliedAdminId } from "../shared/SuppliedId.ts"
import { recordTable } from "./RecordTable.ts"
import { ShortText } from "../shared/Text.ts"

export class Admin extends Schema.Class<Admin>("Admin")({
  id: AdminId,
  name: Schema.NullOr(ShortText)
}) {}

export class AdminCreate extends Schema.Class<AdminCreate>("AdminCreate")({
  id: Schema.NullOr(SuppliedAdminId),
  name: Schema.NullOr(ShortText)
}) {}

/** Like coaches: `name` is replaced only when present. */
export class AdminUpdate extends Schema.Class<AdminUpdate>("AdminUpdate")({
  name: Schema.optionalKey(Schema.NullOr(ShortText))
}) {}

/** Admin records are kept as a plain `RecordTable`: their repository is the generic one. */
export const AdminTable = recordTable({
  entity: "Admin",
  table: "admins",
  record: Admin,
  create: AdminCreate,
  update: AdminUpdate,
  operations: {
    create: "admin.create",
    list: "admin.read",
    read: "admin.read",
    update: "admin.update",
    delete: "admin.delete"
  },
  userLink: "adminId",
  example: { id: 1, name: "Dominique Admin" }
})
