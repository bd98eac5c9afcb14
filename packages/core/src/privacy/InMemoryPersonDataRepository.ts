import { Clock, Effect, Layer, Redacted, Stream } from "effect"
import type { EntityNotFound } from "../shared/Errors.ts"
import type { AdminId, AthleteId, CoachId, UserId } from "../shared/Ids.ts"
import { Admin } from "../records/Admin.ts"
import { Athlete } from "../records/Athlete.ts"
import { Coach } from "../records/Coach.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import { traced } from "../shared/traced.ts"
import { User } from "../users/User.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import type { AuditEntry } from "../audit/AuditEntry.ts"
import { InMemoryAuditJournal } from "../audit/InMemoryAuditJournal.ts"
import {
  athletePersonNotFound,
  type ErasedPerson,
  PersonDataRepository,
  type PersonExportSection,
  personNotFound
} from "./PersonData.ts"

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
 * The export and erasure on the in-memory store, of what it holds: the user and its records (or an
 * athlete alone), guardianships, memberships, notice preferences, idempotent answers and the outbox's events.
 * A reply's reason is blanked; its answer and state stay, so the session's counts stay right.
 */
/** Whether an entry is about the person (their rows, as the database's subject columns tell) or made by them. */
const auditedAbout = (entry: AuditEntry, person: ErasedPerson) => {
  const { records, recordType } = entry
  return (person.userId !== null && (entry.actor?.userId === person.userId ||
    records["user_id"] === person.userId || (recordType === "users" && records["id"] === person.userId))) ||
    (person.athleteId !== null &&
      (records["athlete_id"] === person.athleteId ||
        (recordType === "athletes" && records["id"] === person.athleteId))) ||
    (recordType === "coaches" && records["id"] === person.coachId) ||
    (recordType === "admins" && records["id"] === person.adminId)
}

/** The entry with its ids only: every value `"(erased)"`, and the actor and request gone when they were the person. */
const redacted = (entry: AuditEntry, userId: UserId | null): AuditEntry => {
  const byThem = userId !== null && entry.actor?.userId === userId
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
    const ledger = new Map<string, ErasedPerson>()
    // The placeholder names must differ (names are unique), and say nothing of whom they replace.
    let erasedCount = 0

    /** Who a person is: their user (none for an athlete alone), its linked records, the texts naming them. */
    interface Person {
      readonly userId: UserId | null
      readonly athleteId: AthleteId | null
      readonly coachId: CoachId | null
      readonly adminId: AdminId | null
      readonly texts: ReadonlyArray<string>
      /** The athlete's reasons, as its events tell them: another caller's stored answer may quote one (a guardian's reply). */
      readonly reasons: ReadonlyArray<string>
    }

    const reasonsOf = (athleteId: AthleteId | null): ReadonlyArray<string> =>
      athleteId === null ? [] : outbox.events.flatMap((event) => {
        const data = event.data as Record<string, unknown>
        const reason = data["reason"]
        return data["athleteId"] === athleteId && typeof reason === "string" && reason !== "" ? [reason] : []
      })

    const personOf = (userId: UserId): Person | undefined => {
      const stored = store.users.get(userId)
      if (stored === undefined) return undefined
      const { athleteId, coachId, adminId } = stored.user
      const athleteName = athleteId === null ? null : store.athletes.get(athleteId)?.name ?? null
      const texts = [stored.user.name, stored.user.email, athleteName].filter((t): t is string =>
        t !== null && t !== ""
      )
      return { userId, athleteId, coachId, adminId, texts, reasons: reasonsOf(athleteId) }
    }

    /** The athlete's person: its user's when one links it, else the athlete alone. */
    const personOfAthlete = (athleteId: AthleteId): Person | undefined => {
      const athlete = store.athletes.get(athleteId)
      if (athlete === undefined) return undefined
      const linked = store.users.all().find((stored) => stored.user.athleteId === athleteId)
      if (linked !== undefined) return personOf(linked.id)
      const texts = athlete.name ? [athlete.name] : []
      return { userId: null, athleteId, coachId: null, adminId: null, texts, reasons: reasonsOf(athleteId) }
    }

    /** An event, or any data, about the person: by their athlete or their user (a null id names no one). */
    const about = (p: Person, data: Record<string, unknown>) =>
      (p.athleteId !== null && data["athleteId"] === p.athleteId) || (p.userId !== null && data["userId"] === p.userId)

    const sectionsOf = (p: Person): ReadonlyArray<PersonExportSection> => {
      const { userId, athleteId, coachId, adminId } = p
      const stored = userId === null ? undefined : store.users.get(userId)
      const athlete = athleteId === null ? undefined : store.athletes.get(athleteId)
      const coach = coachId === null ? undefined : store.coaches.get(coachId)
      const admin = adminId === null ? undefined : store.admins.get(adminId)
      return [
        { section: "user", rows: stored === undefined ? [] : [{ ...stored.user }] },
        { section: "athlete", rows: athlete === undefined ? [] : [{ ...athlete }] },
        { section: "coach", rows: coach === undefined ? [] : [{ ...coach }] },
        { section: "admin", rows: admin === undefined ? [] : [{ ...admin }] },
        {
          section: "memberships",
          rows: athleteId === null
            ? []
            : store.memberships.all().filter((m) => m.athleteId === athleteId).map((m) => ({
              id: m.id,
              group_id: m.groupId,
              athlete_id: m.athleteId,
              from_date: m.from,
              until_date: m.until
            }))
        },
        {
          section: "guardianOf",
          rows: [...store.guardians].filter(([, users]) => userId !== null && users.has(userId)).map((
            [athlete]
          ) => ({ athleteId: athlete }))
        },
        {
          section: "guardians",
          rows: [...(athleteId === null ? [] : store.guardians.get(athleteId) ?? [])].map((user) => ({ userId: user }))
        },
        {
          // As the database's rows: the answer, its reason and where it left the athlete.
          section: "replies",
          rows: athleteId === null ? [] : [...store.attendance].flatMap(([sessionId, attendance]) => {
            const reply = attendance.replies.get(athleteId)
            return reply === undefined ? [] : [{
              session_id: sessionId,
              athlete_id: athleteId,
              answer: reply.answer,
              reason: reply.reason,
              state: reply.state,
              replied_by: reply.by
            }]
          })
        },
        {
          section: "noticePreferences",
          rows: userId !== null && store.noticePreferences.has(userId)
            ? [{ ...store.noticePreferences.get(userId) }]
            : []
        },
        { section: "events", rows: outbox.events.filter((e) => about(p, e.data)).map((e) => ({ ...e })) }
      ]
    }

    const pagesOf = (
      person: Person | undefined,
      notFound: EntityNotFound,
      pageSize: number
    ): Stream.Stream<PersonExportSection, EntityNotFound> =>
      person === undefined ? Stream.fail(notFound) : Stream.fromIterable(
        sectionsOf(person).flatMap((s) => {
          const chunks: Array<PersonExportSection> = []
          for (let i = 0; i < s.rows.length; i += pageSize) {
            chunks.push({ section: s.section, rows: s.rows.slice(i, i + pageSize) })
          }
          return chunks
        })
      )

    const exportPerson = (userId: UserId, pageSize: number) =>
      Stream.suspend(() => pagesOf(personOf(userId), personNotFound(userId), pageSize))
    const exportAthlete = (athleteId: AthleteId, pageSize: number) =>
      Stream.suspend(() => pagesOf(personOfAthlete(athleteId), athletePersonNotFound(athleteId), pageSize))

    /** A ledger's key: by user, or, for an athlete alone, by athlete. */
    const ledgerKey = (p: { readonly userId: UserId | null; readonly athleteId: AthleteId | null }) =>
      p.userId === null ? `athlete ${p.athleteId}` : `user ${p.userId}`

    // The store writes at once: the batch size (PostgreSQL's bound on a transaction) has nothing to bound.
    const erasePerson = Effect.fnUntraced(function*(p: Person) {
      const done = ledger.get(ledgerKey(p))
      if (done !== undefined) return done
      const now = yield* Clock.currentTimeMillis
      const { userId, athleteId, coachId, adminId, texts, reasons } = p
      const stored = userId === null ? undefined : store.users.get(userId)
      const athlete = athleteId === null ? undefined : store.athletes.get(athleteId)
      const erased: ErasedPerson = { userId, athleteId, coachId, adminId, erasedAtMs: now }
      // Every check is done: the writes below happen together, as the in-memory store's writes do.
      for (const event of outbox.events) {
        const data = event.data as Record<string, unknown>
        if (about(p, data)) {
          if ("reason" in data) data["reason"] = null
          if ("name" in data) data["name"] = "(erased)"
        }
      }
      for (const { replies } of store.attendance.values()) {
        const reply = athleteId === null ? undefined : replies.get(athleteId)
        if (reply !== undefined) reply.reason = null
      }
      for (const [athlete, users] of store.guardians) {
        if (userId !== null) users.delete(userId)
        if (athlete === athleteId) users.clear()
      }
      if (userId !== null) store.noticePreferences.delete(userId)
      for (const held of store.idempotencyKeys.values()) {
        const answer = held.answer === null
          ? ""
          : byteString(held.answer.body) + JSON.stringify(held.answer.headers)
        // A reason alone is too short to take another caller's answer by: only a reply about the athlete.
        const aboutAthlete = athleteId !== null &&
          [`"athleteId":${athleteId},`, `"athleteId":${athleteId}}`].some((name) => answer.includes(name))
        if (
          held.caller === userId || texts.some((text) => answer.includes(utf8ByteString(text))) ||
          (aboutAthlete && reasons.some((reason) => answer.includes(utf8ByteString(reason))))
        ) {
          store.idempotencyKeys.delete(held.caller, held.key)
        }
      }
      for (const key of store.loginFailures.keys()) {
        if (texts.some((text) => key.startsWith(`name-at-address:[${JSON.stringify(text.toLowerCase())},`))) {
          store.loginFailures.delete(key)
        }
      }
      if (stored !== undefined) {
        store.users.replace({
          id: stored.id,
          user: new User({ ...stored.user, name: `(erased ${++erasedCount})`, email: null }),
          passwordHash: Redacted.make("erased"),
          tokensValidAfter: Math.max(stored.tokensValidAfter, Math.floor(now / 1000) + 1)
        })
      }
      if (athlete !== undefined) {
        store.athletes.replace(new Athlete({ id: athlete.id, name: null, categorie: null, niveau: null }))
      }
      if (coachId !== null && store.coaches.has(coachId)) store.coaches.replace(new Coach({ id: coachId, name: null }))
      if (adminId !== null && store.admins.has(adminId)) store.admins.replace(new Admin({ id: adminId, name: null }))
      ledger.set(ledgerKey(p), erased)
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

    const erase = traced("PersonDataRepository.erase")(function*(userId: UserId) {
      const done = ledger.get(ledgerKey({ userId, athleteId: null }))
      if (done !== undefined) return done
      const person = personOf(userId)
      if (person === undefined) return yield* personNotFound(userId)
      return yield* erasePerson(person)
    })

    const eraseAthlete = traced("PersonDataRepository.eraseAthlete")(function*(athleteId: AthleteId) {
      const person = personOfAthlete(athleteId)
      if (person === undefined) return yield* athletePersonNotFound(athleteId)
      return yield* erasePerson(person)
    })

    const erasures = traced("PersonDataRepository.erasures")(function*() {
      return [...ledger.values()].sort((a, b) =>
        (a.userId ?? 0) - (b.userId ?? 0) || (a.athleteId ?? 0) - (b.athleteId ?? 0)
      )
    })

    return PersonDataRepository.of({ exportPerson, erase, exportAthlete, eraseAthlete, erasures })
  })
)
