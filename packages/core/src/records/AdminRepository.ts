import { Context } from "effect"
import type { Admin, AdminCreate, AdminUpdate } from "./Admin.ts"
import type { PlainRecordRepository } from "./RecordRepository.ts"

/**
 * Admin records (the people; ADMIN users are `UserRepository`'s), a plain `RecordTable`
 * (`AdminTable`). An update replaces the name only when the key is present (`null` clears it);
 * `{}` answers the admin as stored. A delete clears the link of the user linked to it (`adminId`
 * null; the user stays, an ADMIN still).
 */
export class AdminRepository extends Context.Service<
  AdminRepository,
  PlainRecordRepository<Admin, AdminCreate, AdminUpdate>
>()("@club/core/AdminRepository") {}
