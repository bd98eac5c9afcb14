import { Admin } from "@club/core"
import { recordFromRow } from "./rowReader.ts"

/** `SELECT id, name FROM admins` */
export const adminFromRow = recordFromRow(Admin)
