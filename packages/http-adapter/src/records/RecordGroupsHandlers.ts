import { AdminService, AdminTable, CoachService, CoachTable } from "@club/core"
import { Layer } from "effect"
import { recordHandlers } from "./recordHandlers.ts"

/** The handlers of the groups `recordEndpoints` makes: one line each. */
export const RecordGroupsHandlers = Layer.mergeAll(
  recordHandlers("admins", { table: AdminTable, service: AdminService }),
  recordHandlers("coaches", { table: CoachTable, service: CoachService }),
  recordHandlers("rootCoaches", { table: CoachTable, service: CoachService })
)
