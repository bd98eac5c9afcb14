import { Admin } from "@club/core"
import { Schema } from "effect"
import { Int64 } from "../sql/Int64.ts"

/** `SELECT id, name FROM admins` */
export const AdminFromRow = Schema.Struct({
  id: Int64,
  name: Schema.NullOr(Schema.String)
}).pipe(Schema.decodeTo(Admin))
