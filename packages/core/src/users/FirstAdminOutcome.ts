import type { Role } from "../shared/Role.ts"

/**
 * What start-up did about the first admin (`UserService.ensureFirstAdmin`):
 * - `Created`: no ADMIN user existed, and one was created with the configured name;
 * - `AdminExists`: an ADMIN user exists (perhaps created by another instance starting at once);
 * - `NameTaken`: no ADMIN user exists, and a user of another role has the name, so nothing was
 *   created; nobody is promoted behind the operator's back.
 */
export type FirstAdminOutcome =
  | { readonly _tag: "Created" }
  | { readonly _tag: "AdminExists" }
  | { readonly _tag: "NameTaken"; readonly role: Exclude<Role, "ADMIN"> }
