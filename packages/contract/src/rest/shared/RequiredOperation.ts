import type { Operation } from "@club/core"
import { Context } from "effect"

/**
 * The operation of core's role table that an endpoint performs. Authentication refuses a caller
 * whose role the table does not allow before the request is decoded (see http-adapter's `auth/roleGate.ts`).
 */
export const RequiredOperation = Context.Reference<Operation | undefined>("@club/contract/RequiredOperation", {
  defaultValue: () => undefined
})
