import { Clock, Effect, Layer, Redacted, Stream } from "effect"
import type { EntityNotFound } from "../shared/Errors.ts"
import { Admin } from "../records/Admin.ts"
import { Athlete } from "../records/Athlete.ts"
import { Coach } from "../records/Coach.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import type { UserId } from "../shared/Ids.ts"
import { traced } from "../shared/traced.ts"
import { User } from "../users/User.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import type { AuditEntry } from "../audit/AuditEntry.ts"
import { InMemoryAuditJournal } from "../audit/InMemoryAuditJournal.ts"
import { type ErasedPerson, PersonDataRepository, type PersonExportSection, personNotFound } from "./PersonData.ts"

/** Bytes as a string of one character per byte, to search a stored answer for a text's UTF-8 bytes. */
const byteString = (bytes: Uint8Array) => {
  let text = ""
  for (const byte of bytes) text += String.fromCharCode(byte)
  return text
}
const utf8ByteString = (text: string) =>
  encodeURIComponent(text).replace(
    /%([0-9A-F]{2})/gu,
    (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))
  )

/**
 * The export and erasure on the in-memory store, of what it holds: the user and its records,
 * guardianships, memberships, notice preferences, idempotent answers and the outbox's events.
 * A reply's reason is blanked; its answer and state stay, so the session's counts stay right.
 */
/** Whether an entry is about the person (their rows, as the database's subject columns tell) or made by them. */
const auditedAbout = (entry: AuditEntry, person: ErasedPerson) => {
  const { records, recordType } = entry
  return entry.actor?.userId === person.userId ||
    records["user_id"] === person.userId || (recordType === "users" && records["id"] === person.userId) ||
    (person.athleteId !== null &&
      (records["athlete_id"] === person.athleteId ||
        (recordType === "athletes" && records["id"] === person.athleteId))) ||
    (recordType === "coaches" && records["id"] === person.coachId) ||
    (recordType === "admins" && records["id"] === person.adminId)
}

/** The entry with its ids only: every value `"(erased)"`, and the actor and request gone when they were the person. */
const redacted = (entry: AuditEntry, userId: UserId): AuditEntry => {
  const byThem = entry.actor?.userId === userId
  return {
    ...entry,
    actor: byThem ? null : entry.actor,
    requestId: byThem ? null : entry.requestId,
    changes: Object.fromEntries(Object.keys(entry.changes).map((key) => [key, "(erased)"]))
  }
}

export const InMemoryPersonDataRepository = Layer.effect(
  PersonDataRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const outbox = yield* InMemoryOutbox
    const journal = yield* InMemoryAuditJournal
    const ledger = new Map<UserId, ErasedPerson>()
    // The placeholder names must differ (names are unique), and say nothing of whom they replace.
    let erasedCount = 0

    const sectionsOf = (userId: UserId): ReadonlyArray<PersonExportSection> | undefined => {
      const stored = store.users.get(userId)
      if (stored === undefined) return undefined
      const { athleteId, coachId, adminId } = stored.user
      const athlete = athleteId === null ? undefined : store.athletes.get(athleteId)
      const coach = coachId === null ? undefined : store.coaches.get(coachId)
      const admin = adminId === null ? undefined : store.admins.get(adminId)
      const about = (data: Record<string, unknown>) =>
        (athleteId !== null && data["athleteId"] === athleteId) || data["userId"] === userId
      return [
        { section: "user", rows: [{ ...stored.user }] },
        { section: "athlete", rows: athlete === undefined ? [] : [{ ...athlete }] },
        { section: "coach", rows: coach === undefined ? [] : [{ ...coach }] },
        { section: "admin", rows: admin === undefined ? [] : [{ ...admin }] },
        {
          section: "memberships",
          rows: store.memberships.all().filter((m) => m.athleteId === athleteId).map((m) => ({ ...m }))
        },
        {
          section: "guardianOf",
          rows: [...store.guardians].filter(([, users]) => users.has(userId)).map(([athlete]) => ({
            athleteId: athlete
          }))
        },
        {
          section: "guardians",
          rows: [...(athleteId === null ? [] : store.guardians.get(athleteId) ?? [])].map((user) => ({ userId: user }))
        },
        {
          section: "noticePreferences",
          rows: store.noticePreferences.has(userId) ? [{ ...store.noticePreferences.get(userId) }] : []
        },
        { section: "events", rows: outbox.events.filter((e) => about(e.data)).map((e) => ({ ...e })) }
      ]
    }

    const exportPerson = (userId: UserId, pageSize: number): Stream.Stream<PersonExportSection, EntityNotFound> =>
      Stream.unwrap(Effect.suspend(() => {
        const sections = sectionsOf(userId)
        if (sections === undefined) return Effect.fail(personNotFound(userId))
        const pages = sections.flatMap((s) => {
          const chunks: Array<PersonExportSection> = []
          for (let i = 0; i < s.rows.length; i += pageSize) {
            chunks.push({ section: s.section, rows: s.rows.slice(i, i + pageSize) })
          }
          return chunks
        })
        return Effect.succeed(Stream.fromIterable(pages))
      }))

    // The store writes at once: the batch size (PostgreSQL's bound on a transaction) has nothing to bound.
    const erase = traced("PersonDataRepository.erase")(function*(userId: UserId) {
      const done = ledger.get(userId)
      if (done !== undefined) return done
      const stored = store.users.get(userId)
      if (stored === undefined) return yield* personNotFound(userId)
      const now = yield* Clock.currentTimeMillis
      const { athleteId, coachId, adminId } = stored.user
      const texts = [stored.user.name, stored.user.email].filter((t): t is string => t !== null)
      const athlete = athleteId === null ? undefined : store.athletes.get(athleteId)
      if (athlete?.name) texts.push(athlete.name)
      const erased: ErasedPerson = { userId, athleteId, coachId, adminId, erasedAtMs: now }
      // Every check is done: the writes below happen together, as the in-memory store's writes do.
      for (const event of outbox.events) {
        const data = event.data as Record<string, unknown>
        if ((athleteId !== null && data["athleteId"] === athleteId) || data["userId"] === userId) {
          if ("reason" in data) data["reason"] = null
          if ("name" in data) data["name"] = "(erased)"
        }
      }
      for (const { replies } of store.attendance.values()) {
        const reply = athleteId === null ? undefined : replies.get(athleteId)
        if (reply !== undefined) reply.reason = null
      }
      for (const [athlete, users] of store.guardians) {
        users.delete(userId)
        if (athlete === athleteId) users.clear()
      }
      store.noticePreferences.delete(userId)
      for (const held of store.idempotencyKeys.values()) {
        const answer = held.answer === null
          ? ""
          : byteString(held.answer.body) + JSON.stringify(held.answer.headers)
        if (held.caller === userId || texts.some((text) => answer.includes(utf8ByteString(text)))) {
          store.idempotencyKeys.delete(held.caller, held.key)
        }
      }
      for (const key of store.loginFailures.keys()) {
        if (texts.some((text) => key.startsWith(`name-at-address:[${JSON.stringify(text.toLowerCase())},`))) {
          store.loginFailures.delete(key)
        }
      }
      store.users.replace({
        id: userId,
        user: new User({ ...stored.user, name: `(erased ${++erasedCount})`, email: null }),
        passwordHash: Redacted.make("erased"),
        tokensValidAfter: Math.max(stored.tokensValidAfter, Math.floor(now / 1000) + 1)
      })
      if (athlete !== undefined) {
        store.athletes.replace(new Athlete({ id: athlete.id, name: null, categorie: null, niveau: null }))
      }
      if (coachId !== null && store.coaches.has(coachId)) store.coaches.replace(new Coach({ id: coachId, name: null }))
      if (adminId !== null && store.admins.has(adminId)) store.admins.replace(new Admin({ id: adminId, name: null }))
      ledger.set(userId, erased)
      // Last, as the database's erasure does: the entries of the writes above, then every entry
      // about the person or made by them keeps its ids and loses its values (and, theirs, the
      // actor and request).
      yield* journal.around(Effect.void)
      store.auditEntries.forEach((entry, index) => {
        if (auditedAbout(entry, erased)) store.auditEntries[index] = redacted(entry, userId)
      })
      yield* appendEvents(outbox, [{
        sessionId: null,
        type: "personErased",
        data: { userId, athleteId, coachId, adminId }
      }])
      return erased
    })

    const erasures = traced("PersonDataRepository.erasures")(function*() {
      return [...ledger.values()].sort((a, b) => a.userId - b.userId)
    })

    return PersonDataRepository.of({ exportPerson, erase, erasures })
  })
)
