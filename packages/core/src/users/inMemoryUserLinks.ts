import { Admin } from "../records/Admin.ts"
import { Athlete } from "../records/Athlete.ts"
import { Coach } from "../records/Coach.ts"
import type { Role } from "../shared/Role.ts"
import { User } from "./User.ts"
import type { NewUser } from "./UserRepository.ts"
import { type LinkField, linkFieldOf } from "./UserLinks.ts"
import type { InMemoryTables } from "../shared/InMemoryStore.ts"
import type { Table } from "../shared/Table.ts"

/** A user's three link fields: at most one of them set. */
export type Links = Pick<User, LinkField>

/** The record a link names. */
export interface LinkedRecord {
  readonly field: LinkField
  readonly id: number
}

export const linkedRecord = (link: Exclude<NewUser["link"], "create">): LinkedRecord =>
  "coachId" in link
    ? { field: "coachId", id: link.coachId }
    : "athleteId" in link
    ? { field: "athleteId", id: link.athleteId }
    : { field: "adminId", id: link.adminId }

/** Setting one link clears the other two. */
export const linksTo = (field: LinkField, id: number): Links =>
  ({ coachId: null, athleteId: null, adminId: null, [field]: id }) as Links

export const tableOfLink = (store: InMemoryTables, field: LinkField): Table<{ readonly id: number }> =>
  field === "coachId" ? store.coaches : field === "athleteId" ? store.athletes : store.admins

/** A new record of the role's kind, named after the user; call it once every check of the write has passed. */
export const createLinkedRecord = (store: InMemoryTables, role: Role, name: string): Links => {
  const field = linkFieldOf[role]
  switch (field) {
    case "coachId": {
      const id = store.coaches.newId(null) as Coach["id"]
      return linksTo(field, store.coaches.insert(new Coach({ id, name })).id)
    }
    case "athleteId": {
      const id = store.athletes.newId(null) as Athlete["id"]
      return linksTo(field, store.athletes.insert(new Athlete({ id, name, categorie: null, niveau: null })).id)
    }
    case "adminId": {
      const id = store.admins.newId(null) as Admin["id"]
      return linksTo(field, store.admins.insert(new Admin({ id, name })).id)
    }
  }
}

/** The user linked to the record, if any. */
export const userLinkedTo = (store: InMemoryTables, { field, id }: LinkedRecord) => {
  for (const stored of store.users.values()) if (stored.user[field] === id) return stored
  return undefined
}

/** A deleted record's user stays, with that link cleared (the database's ON DELETE SET NULL). */
export const clearUserLink = (store: InMemoryTables, record: LinkedRecord): void => {
  const stored = userLinkedTo(store, record)
  if (stored !== undefined) store.users.replace({ ...stored, user: new User({ ...stored.user, [record.field]: null }) })
}
