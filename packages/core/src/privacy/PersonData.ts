import { Context, type Effect, Schema, type Stream } from "effect"
import { EntityNotFound } from "../shared/Errors.ts"
import { AdminId, AthleteId, CoachId, UserId } from "../shared/Ids.ts"

/**
 * A person is addressed by their user, which names the linked athlete, coach and admin records the
 * export and the erasure take along (decision 0252), or by an athlete record: the person of the user
 * that links it, else the athlete alone, with no user (`userId` null; decision 0300, docs/privacy.md).
 */
export const ErasedPerson = Schema.Struct({
  userId: Schema.NullOr(UserId),
  athleteId: Schema.NullOr(AthleteId),
  coachId: Schema.NullOr(CoachId),
  adminId: Schema.NullOr(AdminId),
  /** When the first erasure finished (epoch milliseconds); a repeated erasure answers the same. */
  erasedAtMs: Schema.Int
})
export type ErasedPerson = typeof ErasedPerson.Type

/**
 * One page of a person's export: the section (what holds them: `user`, `replies`, ...) and at most
 * a page of its rows, each a JSON object as the table holds it (secrets left out: no password hash,
 * no token). A section longer than a page comes as several pages, one after the other.
 */
export const PersonExportSection = Schema.Struct({
  section: Schema.String,
  rows: Schema.Array(Schema.Record(Schema.String, Schema.Unknown))
})
export type PersonExportSection = typeof PersonExportSection.Type

/**
 * The whole export: its pages in order, written as they are read (docs/privacy.md lists the
 * sections and their fields).
 */
export const PersonExport = Schema.Array(PersonExportSection)
export type PersonExport = typeof PersonExport.Type

/** No user of that id (`EntityNotFound`, entity `User`), and none erased under it. */
export const personNotFound = (userId: UserId) => new EntityNotFound({ entity: "User", id: userId })

/** No athlete record of that id (`EntityNotFound`, entity `Athlete`). */
export const athletePersonNotFound = (athleteId: AthleteId) => new EntityNotFound({ entity: "Athlete", id: athleteId })

/**
 * Everything the service holds about a person, read and erased through one list of holders
 * (each a table, or a part of one, that names the person); a table added later (audit entries) is
 * one more holder, and both the export and the erasure take it.
 */
export class PersonDataRepository extends Context.Service<PersonDataRepository, {
  /**
   * The person's data, section by section, each section in pages of at most `pageSize` rows read
   * one page at a time: never the whole history in memory.
   */
  exportPerson(userId: UserId, pageSize: number): Stream.Stream<PersonExportSection, EntityNotFound>
  /**
   * Removes or replaces the person's personal fields everywhere, in transactions of at most
   * `batchSize` rows each, then ends their user (placeholder name, no email, unusable password,
   * tokens revoked), records the erasure in the ledger and writes a `personErased` event naming only
   * ids, in one last transaction. Idempotent: erasing again answers the first erasure and changes
   * nothing; two instances erasing at once write one event.
   */
  erase(userId: UserId, batchSize: number): Effect.Effect<ErasedPerson, EntityNotFound>
  /**
   * The person of an athlete record, exported as `exportPerson` does: the user that links the
   * athlete's whole person when one does, else the athlete alone (no user, so none of a user's sections
   * has rows). Unknown athlete: `athletePersonNotFound`.
   */
  exportAthlete(athleteId: AthleteId, pageSize: number): Stream.Stream<PersonExportSection, EntityNotFound>
  /**
   * The person of an athlete record, erased: when a user links it, that user's erasure (`erase`,
   * the same ledger row); else the athlete alone, with a ledger row of no user and a `personErased`
   * event naming the athlete with `userId` null. Idempotent as `erase` is. Unknown athlete:
   * `athletePersonNotFound`.
   */
  eraseAthlete(athleteId: AthleteId, batchSize: number): Effect.Effect<ErasedPerson, EntityNotFound>
  /**
   * The ledger of erasures (ids only), for replaying them after a backup is restored: a row with a
   * user by `erase`, one without by `eraseAthlete`.
   */
  erasures(): Effect.Effect<ReadonlyArray<ErasedPerson>>
}>()("@club/core/PersonDataRepository") {}
