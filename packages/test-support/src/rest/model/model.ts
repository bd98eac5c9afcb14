import { randomUUID } from "node:crypto"
import fc from "fast-check"
import type { Reply } from "../../Reply.ts"
import type { Caller, Club, Role } from "../Club.ts"
import { createAthlete, createCoach, createUser, missingId, tokenOf, unique } from "../records.ts"
import { addDays, clubNow, instantsOf, offsetChangeDays } from "./zone.ts"

/**
 * A reference model of the club's schedule and attendance, written from the docs
 * (docs/schedule/series.md, docs/attendance.md, the ownership rule of issue 36, and the groups,
 * memberships and guardians of docs/membership.md, issue 41, the audit trail, export and erasure of
 * docs/privacy.md, issue 43), and the commands
 * that drive the REST API and the model side by side. After every command the answer must agree
 * with the model, and the invariants must hold on what the API then lists.
 */

export const modelTimeZone = "Europe/Paris"

// ---------------------------------------------------------------------------------------------
// The days the commands book: around daylight-saving changes of the club's zone.

const dayMs = 86_400_000
const [nextChange, changeAfter] = offsetChangeDays(modelTimeZone, Date.now() + 14 * dayMs, 1, 2)
const [lastChange] = offsetChangeDays(modelTimeZone, Date.now() - dayMs, -1, 1)
/** Single sessions go on the next two days the offset changes (to come) and on the last (started: marks). */
export const sessionDays = [nextChange!, changeAfter!, lastChange!] as const
/**
 * A series' occurrences must exist at once (the horizon, 26 weeks by default): they cross the next
 * change when it is close enough, else they are three weeks from now.
 */
const seriesDay = Date.parse(`${nextChange}T00:00:00Z`) - Date.now() < 20 * 7 * dayMs
  ? nextChange!
  : new Date(Date.now() + 21 * dayMs).toISOString().slice(0, 10)
/** Times around the changes (01:00 to 03:00 local in Europe), and an ordinary evening. */
const times = ["00:30", "01:00", "01:30", "02:00", "02:15", "02:30", "02:45", "03:00", "03:30", "18:00"] as const
const durees = [15, 30, 45, 60, 90, 120, 180] as const

// ---------------------------------------------------------------------------------------------
// The model.

type Answer = "yes" | "no" | "maybe"
type ReplyState = "confirmed" | "waiting" | "maybe" | "declined"
interface ModelReply {
  answer: Answer
  state: ReplyState
  /** The order of the yes that put it on the list. */
  order: number
}

interface ModelSeries {
  id: number
  coach: number | null
  /** The cast's group its `groupe` names, or null; its occurrences carry it. */
  groupe: number | null
  athletes: Array<number>
  duree: number
  start: string
}

interface ModelSession {
  id: number
  /** The coach's index in the cast (0: coach A, 1: coach B), or null. */
  coach: number | null
  /** The index of the cast's group its `groupe` names, or null (no group). */
  groupe: number | null
  /** The athletes' indexes in the cast, sorted. */
  athletes: Array<number>
  creneau: string
  duree: number
  series: ModelSeries | null
  occurrenceStart: string | null
  overridden: boolean
  capacity: number | null
  replies: Map<number, ModelReply>
}

/** An athlete in a group over the days `from` to `until`, both included (null: open-ended). */
interface ModelMembership {
  id: number
  athlete: number
  group: number
  from: string
  until: string | null
}

export interface Model {
  sessions: Array<ModelSession>
  series: Array<ModelSeries>
  memberships: Array<ModelMembership>
  yesCounter: number
}

export const emptyModel = (): Model => ({ sessions: [], series: [], memberships: [], yesCounter: 0 })

// ---------------------------------------------------------------------------------------------
// Groups, memberships and guardians (docs/membership.md).

/**
 * The cast's groups by index: 0 the top one (no coach), 1 under it coached by coach A, 2 under 1
 * coached by coach B. Each run makes them afresh under the club's root (`clearedCast`).
 */
const groupParents: ReadonlyArray<number | null> = [null, 0, 1]
const groupCoaches: ReadonlyArray<ReadonlyArray<number>> = [[], [0], [1]]
const groupLabels = ["top", "groupA", "subB"] as const
/** The coaches of a group and of every group above it: who manages its memberships and acts on its sessions. */
const coachesFrom = (group: number): ReadonlyArray<number> => {
  const parent = groupParents[group]!
  return [...groupCoaches[group]!, ...(parent === null ? [] : coachesFrom(parent))]
}
/** The cast's guardian (an ATHLETE user without an athlete record) answers for athletes 1 and 2. */
const guardedAthletes: ReadonlyArray<number> = [0, 1]

/** The day of a session: its `creneau`'s date, on the club's wall clock. */
const dayOf = (s: { creneau: string }) => s.creneau.slice(0, 10)
const memberOn = (m: Readonly<Model>, athlete: number, group: number, day: string) =>
  m.memberships.find((x) =>
    x.athlete === athlete && x.group === group && x.from <= day && (x.until === null || day <= x.until)
  )
/** Invited: the session's own athletes, and the members of exactly its group on its day. */
const memberOfSession = (m: Readonly<Model>, s: ModelSession, athlete: number) =>
  s.groupe === null ? undefined : memberOn(m, athlete, s.groupe, dayOf(s))
const invites = (m: Readonly<Model>, s: ModelSession, athlete: number) =>
  s.athletes.includes(athlete) || memberOfSession(m, s, athlete) !== undefined

const occurrencesOf = (m: Model, series: ModelSeries) =>
  m.sessions.filter((s) => s.series === series).sort((x, y) => x.occurrenceStart!.localeCompare(y.occurrenceStart!))

const confirmedCount = (s: ModelSession) => [...s.replies.values()].filter((r) => r.state === "confirmed").length
const waitingInOrder = (s: ModelSession) =>
  [...s.replies.entries()].filter(([, r]) => r.state === "waiting").sort(([, x], [, y]) => x.order - y.order)

/** Whenever a place frees, the first waiting are confirmed (docs/attendance.md). */
const promote = (s: ModelSession) => {
  for (const [, reply] of waitingInOrder(s)) {
    if (s.capacity !== null && confirmedCount(s) >= s.capacity) return
    reply.state = "confirmed"
  }
}

const applyReply = (m: Model, s: ModelSession, athlete: number, answer: Answer) => {
  const before = s.replies.get(athlete)
  if (answer === "yes") {
    // A yes repeated keeps its place; a yes after a no or a maybe goes to the end.
    if (before?.answer === "yes") return
    const state = s.capacity === null || confirmedCount(s) < s.capacity ? "confirmed" : "waiting"
    s.replies.set(athlete, { answer, state, order: ++m.yesCounter })
    return
  }
  s.replies.set(athlete, { answer, state: answer === "no" ? "declined" : "maybe", order: before?.order ?? 0 })
  if (before?.state === "confirmed") promote(s)
}

/**
 * An athlete taken out of a session loses its reply, unless the session's group still invites it
 * on the session's day; a place it held goes to the first waiting. A member who was never one of
 * the session's athletes is taken out of nothing: its reply stays, also after its membership ended.
 */
const setAthletes = (m: Readonly<Model>, s: ModelSession, athletes: ReadonlyArray<number>) => {
  const kept = new Set(athletes)
  let freed = false
  for (const [athlete, reply] of s.replies) {
    if (!s.athletes.includes(athlete) || kept.has(athlete) || memberOfSession(m, s, athlete) !== undefined) continue
    s.replies.delete(athlete)
    if (reply.state === "confirmed") freed = true
  }
  s.athletes = [...kept].sort((a, b) => a - b)
  if (freed) promote(s)
}

interface Booking {
  readonly coach: number | null
  readonly groupe?: number | null
  readonly athletes: ReadonlyArray<number>
  readonly creneau: string
  readonly duree: number
}

const overlapsInTime = (a: Booking, b: Booking) => {
  const x = instantsOf(modelTimeZone, a.creneau, a.duree)
  const y = instantsOf(modelTimeZone, b.creneau, b.duree)
  return x.start < y.end && y.start < x.end
}
const sharesSomeone = (a: Booking, b: Booking) =>
  (a.coach !== null && a.coach === b.coach) || a.athletes.some((athlete) => b.athletes.includes(athlete))

/** The sessions (outside `changed`) that `bookings` would double-book, in real time. */
const conflictsOf = (m: Model, bookings: ReadonlyArray<Booking>, changed: ReadonlySet<number> = new Set()) =>
  m.sessions.filter((s) =>
    !changed.has(s.id) && bookings.some((booking) => sharesSomeone(booking, s) && overlapsInTime(booking, s))
  )

// ---------------------------------------------------------------------------------------------
// The system under test: a cast of its own on the club's API.

interface Member {
  readonly id: number
  readonly userId: number
  readonly caller: Caller
}

/** Who the audit trail names for a write: the user and its role (docs/privacy.md, "Audit trail"). */
interface Identity {
  readonly userId: number
  readonly role: Role
}

/** A write sent during a command, with what its answer was and who sent it. */
interface SentWrite {
  readonly what: string
  readonly status: number
  readonly requestId: string | null
  readonly identity: Identity
}

/** An entry a write that changed something must have left: its request, table and operations, and the row's id. */
interface ExpectedEntry {
  readonly what: string
  readonly requestId: string | null
  readonly recordType: string
  readonly operations: ReadonlyArray<string>
  readonly records: Readonly<Record<string, number>>
}

export interface Real {
  readonly club: Club
  readonly admin: Caller
  readonly coaches: ReadonlyArray<Member>
  readonly athletes: ReadonlyArray<Member>
  /** An ATHLETE user without an athlete record, guardian of athletes 1 and 2. */
  readonly guardian: Caller
  /** The club's root group, found or made once. */
  readonly rootId: number
  /** The run's groups (see `groupParents`), made by `clearedCast`. */
  groups: ReadonlyArray<{ readonly id: number; readonly name: string }>
  readonly stats: { commands: number; requests: number }
  readonly adminUserId: number
  /** The guardian's user. */
  readonly guardianUserId: number
  /**
   * A coach outside the cast, whose sessions (of people made for an erasure, `EraseExtra`) never
   * meet the cast's; they are deleted by the command that makes them.
   */
  readonly outsider: Member
  /**
   * The store is a database: an export lists exactly the replies that stand (the in-memory store
   * drops a reply its session no longer holds when it next reads the session).
   */
  readonly database: boolean
  /** The writes of the command running, and the entries they must have left. */
  readonly writes: Array<SentWrite>
  readonly expectedEntries: Array<ExpectedEntry>
  /**
   * Whether an erased person's login was tried: once per cast, since each failed login from this
   * address makes the next logins wait (login throttling), the cast's own included.
   */
  erasedLoginTried: boolean
}

const answered = <A>(reply: Reply, status: number, what: string): A => {
  if (reply.status !== status) throw new Error(`${what} failed: ${reply.status} ${reply.text}`)
  return reply.body as A
}

/** The club's root group: the group without a parent, made when the club has none yet. */
const rootGroup = async (club: Club) => {
  const page = answered<{ items: ReadonlyArray<{ id: number; parentId: number | null }> }>(
    await club.admin.get("/groups?limit=500"),
    200,
    "Listing the groups"
  )
  const root = page.items.find((group) => group.parentId === null)
  if (root !== undefined) return root.id
  return answered<{ id: number }>(
    await club.admin.post("/groups", { name: unique("model-club"), parentId: null, coachIds: [] }),
    201,
    "Creating the root group"
  ).id
}

/**
 * Two coaches and four athletes, each with a user of its own, logged in; a guardian of athletes 1
 * and 2 (an ATHLETE user whose own record is deleted, as docs/membership.md describes a parent).
 */
export const setUpCast = async (club: Club, stats: Real["stats"]): Promise<Real> => {
  const member = async (role: "COACH" | "ATHLETE", id: number) => {
    const user = await createUser(club, {
      name: unique(`model-${role.toLowerCase()}`),
      role,
      ...(role === "COACH" ? { coachId: id } : { athleteId: id })
    })
    return { id, userId: user.id, caller: club.withToken(await tokenOf(club, user.name, user.password)) }
  }
  const coaches: Array<Member> = []
  for (const name of ["Coach A", "Coach B"]) {
    coaches.push(await member("COACH", (await createCoach(club, { name })).id))
  }
  const athletes: Array<Member> = []
  for (let i = 1; i <= 4; i++) {
    athletes.push(await member("ATHLETE", (await createAthlete(club, { name: `Athlete ${i}` })).id))
  }
  const parent = await createUser(club, { name: unique("model-guardian"), role: "ATHLETE" })
  answered(await club.admin.delete(`/athletes/${parent.athleteId}`), 204, "Deleting the guardian's own record")
  for (const i of guardedAthletes) {
    answered(
      await club.admin.put(`/guardians/${parent.id}/athletes/${athletes[i]!.id}`),
      200,
      "Linking the guardian"
    )
  }
  const guardian = club.withToken(await tokenOf(club, parent.name, parent.password))
  const outsider = await member("COACH", (await createCoach(club, { name: "Coach C" })).id)
  // Every store audits (the in-memory one since decision 0303): the outsider's record has its entry.
  const audited = await club.admin.get(`/audit?recordType=coaches&recordId=${outsider.id}`)
  const entries = answered<{ items: ReadonlyArray<unknown> }>(audited, 200, "Reading the audit trail")
  if (entries.items.length === 0) throw new Error("The outsider coach's create left no audit entry")
  return {
    club,
    admin: club.admin,
    coaches,
    athletes,
    guardian,
    rootId: await rootGroup(club),
    groups: [],
    stats,
    adminUserId: club.user.ADMIN.id,
    guardianUserId: parent.id,
    outsider,
    // The server, with a database behind it, names every answer's request; the in-process app on
    // the memory store names none, and keeps a reply until it next looks at its session.
    database: audited.headers.get("x-request-id") !== null,
    writes: [],
    expectedEntries: [],
    erasedLoginTried: false
  }
}

/**
 * A run's starting point: the cast without sessions, and groups without members. The cast is set up
 * once per suite (logins are slow over the wire), and every session of its coaches deleted before
 * each run (the seed's delete, by a coach of the cast), their replies and marks with them. A
 * membership is never deleted (ended, never rewritten; a group that had one stays), so each run
 * makes its three groups afresh under the club's root: a run, and its replay from MODEL_SEED and
 * MODEL_PATH, starts from no membership, as its model does.
 */
export const clearedCast = async (real: Real) => {
  for (const member of [...real.coaches, real.outsider]) {
    const reply = await member.caller.get(`/planning/sessions?coachId=${member.id}&limit=500`)
    if (reply.status !== 200) throw new Error(`Listing the cast's sessions failed: ${reply.status} ${reply.text}`)
    for (const session of (reply.body as { items: ReadonlyArray<{ id: number }> }).items) {
      const deleted = await member.caller.delete(`/session/delete/${session.id}`)
      if (deleted.status !== 200) {
        throw new Error(`Deleting session ${session.id} failed: ${deleted.status} ${deleted.text}`)
      }
    }
  }
  const groups: Array<{ id: number; name: string }> = []
  for (const [g, parent] of groupParents.entries()) {
    const name = unique(`model-${groupLabels[g]}`)
    const created = answered<{ id: number }>(
      await real.admin.post("/groups", {
        name,
        parentId: parent === null ? real.rootId : groups[parent]!.id,
        coachIds: groupCoaches[g]!.map((i) => real.coaches[i]!.id)
      }),
      201,
      "Creating a group of the cast"
    )
    groups.push({ id: created.id, name })
  }
  real.groups = groups
  return real
}

// ---------------------------------------------------------------------------------------------
// Actors and requests.

export type Actor =
  | { readonly kind: "admin" }
  | { readonly kind: "guardian" }
  | { readonly kind: "coach" | "athlete"; readonly i: number }
export const admin: Actor = { kind: "admin" }
export const guardian: Actor = { kind: "guardian" }
export const coach = (i: number): Actor => ({ kind: "coach", i })
export const athlete = (i: number): Actor => ({ kind: "athlete", i })
const actorName = (a: Actor) =>
  a.kind === "admin" || a.kind === "guardian"
    ? a.kind
    : a.kind === "coach"
    ? `coach${"AB"[a.i]}`
    : `athlete${a.i + 1}`
/** The guardian's role is ATHLETE: what an athlete may not do, it may not either. */
const athleteRole = (a: Actor) => a.kind === "athlete" || a.kind === "guardian"
const groupName = (g: number | null) => g === null ? "none" : groupLabels[g]
const coachName = (i: number | null) => i === null ? "nobody" : `coach${"AB"[i]}`
const athletesName = (list: ReadonlyArray<number>) => `[${list.map((i) => `athlete${i + 1}`).join(",")}]`

const callerOf = (r: Real, a: Actor) =>
  a.kind === "admin"
    ? r.admin
    : a.kind === "guardian"
    ? r.guardian
    : a.kind === "coach"
    ? r.coaches[a.i]!.caller
    : r.athletes[a.i]!.caller

const fail = (shown: string, message: string): never => {
  throw new Error(`${shown}: ${message}`)
}

const identityOf = (r: Real, a: Actor): Identity =>
  a.kind === "admin"
    ? { userId: r.adminUserId, role: "ADMIN" }
    : a.kind === "guardian"
    ? { userId: r.guardianUserId, role: "ATHLETE" }
    : a.kind === "coach"
    ? { userId: r.coaches[a.i]!.userId, role: "COACH" }
    : { userId: r.athletes[a.i]!.userId, role: "ATHLETE" }

/** With MODEL_DEBUG set: the requests sent, by actor, method, path and status (what the draw reached). */
export const debugCounts = new Map<string, number>()
/** One request by `caller`, who the audit trail must name as `identity`; a write is remembered for `checkAudit`. */
const sendAs = async (
  r: Real,
  shown: string,
  caller: Caller,
  identity: Identity & { readonly label: string },
  method: string,
  path: string,
  json?: unknown
) => {
  // Each write names its own request id, which the server keeps (a sane one) and the in-process
  // app, which assigns none, hands to the audit trail as it came.
  const suppliedId = `model-${randomUUID()}`
  const headers = method === "GET" ? undefined : { "x-request-id": suppliedId }
  const reply = await caller.send(method, path, {
    ...(json === undefined ? {} : { json }),
    ...(headers === undefined ? {} : { headers })
  })
  r.stats.requests++
  if (process.env["MODEL_DEBUG"] !== undefined) {
    const key = `${identity.label} ${method} ${path.replace(/[?&]limit=\d+/, "").replace(/\d+/g, "#")} ${reply.status}`
    debugCounts.set(key, (debugCounts.get(key) ?? 0) + 1)
  }
  if (reply.status >= 500) fail(shown, `${method} ${path} answered ${reply.status} (never a 5xx): ${reply.text}`)
  if (method !== "GET") {
    r.writes.push({
      what: `${identity.label} ${method} ${path}`,
      status: reply.status,
      requestId: reply.headers.get("x-request-id") ?? suppliedId,
      identity: { userId: identity.userId, role: identity.role }
    })
  }
  return reply
}
const send = (r: Real, shown: string, a: Actor, method: string, path: string, json?: unknown) =>
  sendAs(r, shown, callerOf(r, a), { ...identityOf(r, a), label: a.kind }, method, path, json)

/** The last write sent must have left an entry of `recordType` naming `records` (a change it made). */
const expectEntry = (
  r: Real,
  recordType: string,
  operations: ReadonlyArray<string>,
  records: Readonly<Record<string, number>>
) => {
  const write = r.writes.at(-1)!
  r.expectedEntries.push({ what: write.what, requestId: write.requestId, recordType, operations, records })
}

interface AuditEntryDto {
  readonly id: number
  readonly actor: Identity | null
  readonly requestId: string | null
  readonly operation: string
  readonly recordType: string
  readonly records: Readonly<Record<string, unknown>>
  readonly changes: Readonly<Record<string, unknown>>
}

/**
 * After a command, on every store (decisions 0240, 0303): each write answered 2xx has its entries, each
 * naming the user and role that sent it, and those the model knows it changed; a write refused
 * (4xx) has none. The newest page of the trail holds every entry of the command's writes.
 */
const checkAudit = async (r: Real, shown: string) => {
  if (r.writes.length === 0) return
  const writes = [...r.writes]
  const reply = await send(r, shown, admin, "GET", "/audit?limit=500")
  expectStatus(shown, reply, { statuses: [200], why: "audit.read is Admin" })
  const items = (reply.body as { items: ReadonlyArray<AuditEntryDto> }).items
  for (const write of writes) {
    if (write.requestId === null) fail(shown, `${write.what} answered no x-request-id`)
    const entries = items.filter((entry) => entry.requestId === write.requestId)
    if (write.status >= 300 && entries.length > 0) {
      fail(shown, `${write.what} was refused (${write.status}) but left entries: ${JSON.stringify(entries)}`)
    }
    for (const entry of entries) {
      same(shown, `who the entry ${entry.id} of ${write.what} names`, entry.actor, write.identity)
    }
  }
  for (const expected of r.expectedEntries) {
    const found = items.some((entry) =>
      entry.requestId === expected.requestId && entry.recordType === expected.recordType &&
      expected.operations.includes(entry.operation) &&
      Object.entries(expected.records).every(([key, id]) => entry.records[key] === id)
    )
    if (!found) {
      fail(
        shown,
        `${expected.what} left no ${expected.operations.join("/")} entry of ${expected.recordType} ${
          JSON.stringify(expected.records)
        }: ${JSON.stringify(items.filter((entry) => entry.requestId === expected.requestId))}`
      )
    }
  }
}

interface Expected {
  readonly statuses: ReadonlyArray<number>
  readonly why: string
}
/** The first rule that applies, in the order the service checks them; `ok` when none does. */
const expectFirst = (
  rules: ReadonlyArray<readonly [boolean, ReadonlyArray<number>, string]>,
  ok: Expected
): Expected => {
  for (const [applies, statuses, why] of rules) if (applies) return { statuses, why }
  return ok
}
const expectStatus = (shown: string, reply: Reply, expected: Expected) => {
  if (!expected.statuses.includes(reply.status)) {
    fail(
      shown,
      `expected ${expected.statuses.join(" or ")} (${expected.why}), got ${reply.status}: ${reply.text.slice(0, 400)}`
    )
  }
}
/** A refusal names the member it is about (docs: "409 naming `from`", "400 naming `athleteId`"). */
const expectNaming = (shown: string, reply: Reply, status: number, member: string) => {
  if (reply.status === status && !reply.text.includes(member)) {
    fail(shown, `the ${status} does not name \`${member}\`: ${reply.text.slice(0, 400)}`)
  }
}
const same = (shown: string, what: string, actual: unknown, expected: unknown) => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    fail(shown, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
  }
}

/**
 * Which of two refusals comes first, the ownership rule's 403 or an unknown athlete's 400, is not
 * written down: where both apply, either answers.
 */
const withUnknown = (unknownAthlete: boolean, status: number) => unknownAthlete ? [status, 400] : [status]

/**
 * A coach acts on the sessions it coaches, on those without a coach (the ownership rule), and on
 * those of a group it coaches or of a group below one it coaches (docs/membership.md).
 */
const owns = (a: Actor, coachIndex: number | null, groupe: number | null = null) =>
  a.kind === "coach" &&
  (coachIndex === null || coachIndex === a.i || (groupe !== null && coachesFrom(groupe).includes(a.i)))
/** Admins and the coaches of the group or of a group above it manage its memberships. */
const manages = (a: Actor, group: number) =>
  a.kind === "admin" || (a.kind === "coach" && coachesFrom(group).includes(a.i))

// ---------------------------------------------------------------------------------------------
// What is checked after every command.

interface SessionDto {
  readonly id: number
  readonly groupe: string | null
  readonly coachId: number | null
  readonly athleteIds: ReadonlyArray<number>
  readonly creneau: string | null
  readonly duree: number | null
}
interface ReplyDto {
  readonly athleteId: number
  readonly answer: string
  readonly state: string
  readonly waitingPosition: number | null
}
interface SessionRepliesDto {
  readonly capacity: number | null
  readonly confirmed: number
  readonly waiting: number
  readonly replies: ReadonlyArray<ReplyDto>
}

const sessionView = (
  r: Real,
  s: { coach: number | null; groupe?: number | null; athletes: ReadonlyArray<number>; creneau: string; duree: number }
) => ({
  groupe: s.groupe === undefined || s.groupe === null ? null : r.groups[s.groupe]!.name,
  coachId: s.coach === null ? null : r.coaches[s.coach]!.id,
  athleteIds: s.athletes.map((i) => r.athletes[i]!.id).sort((a, b) => a - b),
  creneau: s.creneau,
  duree: s.duree
})
const dtoView = (dto: SessionDto) => ({
  groupe: dto.groupe,
  coachId: dto.coachId,
  athleteIds: [...dto.athleteIds].sort((a, b) => a - b),
  creneau: dto.creneau,
  duree: dto.duree
})

const expectedReplies = (r: Real, s: ModelSession) => {
  const waiting = waitingInOrder(s).map(([athlete]) => athlete)
  return {
    capacity: s.capacity,
    confirmed: confirmedCount(s),
    waiting: waiting.length,
    replies: [...s.replies.entries()]
      .map(([athlete, reply]) => ({
        athleteId: r.athletes[athlete]!.id,
        answer: reply.answer,
        state: reply.state,
        waitingPosition: reply.state === "waiting" ? waiting.indexOf(athlete) + 1 : null
      }))
      .sort((x, y) => x.athleteId - y.athleteId)
  }
}
const repliesView = (dto: SessionRepliesDto) => ({
  capacity: dto.capacity,
  confirmed: dto.confirmed,
  waiting: dto.waiting,
  replies: dto.replies
    .map(({ answer, athleteId, state, waitingPosition }) => ({ athleteId, answer, state, waitingPosition }))
    .sort((x, y) => x.athleteId - y.athleteId)
})

/** Confirmed replies never above the capacity (unless it shrank after), the waiting list numbered 1..n. */
const checkReplyInvariants = (shown: string, dto: SessionRepliesDto) => {
  const positions = dto.replies.filter((reply) => reply.state === "waiting").map((reply) => reply.waitingPosition)
  same(shown, "waiting positions", [...positions].sort((a, b) => a! - b!), positions.map((_, i) => i + 1))
  if (dto.waiting > 0 && (dto.capacity === null || dto.confirmed < dto.capacity)) {
    fail(shown, `athletes wait while a place is free: ${JSON.stringify(dto)}`)
  }
}

const checkState = async (m: Model, r: Real, shown: string, touched: ReadonlyArray<number>) => {
  const listed: Array<SessionDto> = []
  for (const member of r.coaches) {
    const reply = await send(r, shown, admin, "GET", `/planning/sessions?coachId=${member.id}&limit=500`)
    expectStatus(shown, reply, { statuses: [200], why: "any role reads the planning" })
    listed.push(...(reply.body as { items: Array<SessionDto> }).items)
  }
  // The invariant on what the API holds, computed from its own answer: nobody in two sessions
  // overlapping in real time (every session of the cast was written through /planning).
  const byCoach = new Map(r.coaches.map((member, i) => [member.id, i]))
  const byAthlete = new Map(r.athletes.map((member, i) => [member.id, i]))
  const held = listed.filter((dto) => dto.creneau !== null && dto.duree !== null).map((dto) => ({
    id: dto.id,
    coach: dto.coachId === null ? null : byCoach.get(dto.coachId) ?? null,
    athletes: dto.athleteIds.map((id) => byAthlete.get(id) ?? -1 - id),
    creneau: dto.creneau!,
    duree: dto.duree!
  }))
  for (const [i, a] of held.entries()) {
    for (const b of held.slice(i + 1)) {
      if (sharesSomeone(a, b) && overlapsInTime(a, b)) {
        fail(shown, `sessions ${a.id} and ${b.id} book one person at overlapping instants: ${JSON.stringify([a, b])}`)
      }
    }
  }
  same(
    shown,
    "the cast's sessions (GET /planning/sessions)",
    listed.map((dto) => ({ id: dto.id, ...dtoView(dto) })).sort((x, y) => x.id - y.id),
    m.sessions.map((s) => ({ id: s.id, ...sessionView(r, s) })).sort((x, y) => x.id - y.id)
  )
  for (const id of new Set(touched)) {
    const s = m.sessions.find((session) => session.id === id)
    if (s === undefined) continue
    const reply = await send(r, shown, admin, "GET", `/attendance/sessions/${id}/replies`)
    expectStatus(shown, reply, { statuses: [200], why: "any role reads the replies" })
    checkReplyInvariants(shown, reply.body as SessionRepliesDto)
    same(shown, `the replies of session ${id}`, repliesView(reply.body as SessionRepliesDto), expectedReplies(r, s))
  }
}

// ---------------------------------------------------------------------------------------------
// The commands.

type Command = fc.AsyncCommand<Model, Real>

abstract class ModelCommand implements Command {
  /** The command as last run, with what its picks resolved to. */
  protected shown = ""
  abstract describe(): string
  check(model: Readonly<Model>): boolean {
    return model.sessions.length >= 0
  }
  abstract act(m: Model, r: Real): Promise<ReadonlyArray<number>>
  async run(m: Model, r: Real) {
    r.stats.commands++
    this.shown = this.describe()
    r.writes.length = 0
    r.expectedEntries.length = 0
    const touched = await this.act(m, r)
    await checkState(m, r, this.shown, touched)
    await checkAudit(r, this.shown)
  }
  toString() {
    return this.shown === "" ? this.describe() : this.shown
  }
}

const pickOf = <A>(items: ReadonlyArray<A>, pick: number) => items[pick % items.length]!
const sessionLabel = (s: ModelSession | undefined) =>
  s === undefined
    ? "no such session"
    : `session ${s.id} (${coachName(s.coach)}, ${athletesName(s.athletes)}, ${s.creneau}+${s.duree}${
      s.groupe === null ? "" : `, group ${groupName(s.groupe)}`
    }${s.series === null ? "" : ", occurrence"})`

const missingAthleteId = missingId

export class CreateSession extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly coachChoice: number | "self",
    readonly athletes: ReadonlyArray<number>,
    readonly unknownAthlete: boolean,
    readonly creneau: string,
    readonly duree: number,
    readonly groupe: number | null = null
  ) {
    super()
  }
  describe() {
    return `${actorName(this.actor)} POST /planning/sessions {coach: ${
      this.coachChoice === "self" ? "absent" : coachName(this.coachChoice)
    }, athletes: ${athletesName(this.athletes)}${
      this.unknownAthlete ? "+unknown" : ""
    }, creneau: ${this.creneau}, duree: ${this.duree}${
      this.groupe === null ? "" : `, groupe: ${groupName(this.groupe)}`
    }}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const coachIndex = this.coachChoice === "self" ? (a.kind === "coach" ? a.i : null) : this.coachChoice
    const booking = {
      coach: coachIndex,
      groupe: this.groupe,
      athletes: [...new Set(this.athletes)].sort(),
      creneau: this.creneau,
      duree: this.duree
    }
    const conflicts = conflictsOf(m, [booking])
    const expected = expectFirst([
      [a.kind !== "coach", [403], "session.create is Coach"],
      [
        a.kind === "coach" && coachIndex !== a.i,
        withUnknown(this.unknownAthlete, 403),
        "a coach creates sessions only for itself"
      ],
      [this.unknownAthlete, [400], "an unknown athlete"],
      [conflicts.length > 0, [409], `double booking with ${conflicts.map(sessionLabel).join("; ")}`]
    ], { statuses: [201], why: "a valid session" })
    const body = {
      name: "Model",
      ...(this.groupe === null ? {} : { groupe: r.groups[this.groupe]!.name }),
      ...(this.coachChoice === "self" ? {} : { coachId: r.coaches[this.coachChoice]!.id }),
      athleteIds: [...this.athletes.map((i) => r.athletes[i]!.id), ...(this.unknownAthlete ? [missingAthleteId] : [])],
      creneau: this.creneau,
      duree: this.duree
    }
    const reply = await send(r, this.shown, a, "POST", "/planning/sessions", body)
    expectStatus(this.shown, reply, expected)
    if (reply.status === 409) expectNamed(this.shown, reply, conflicts)
    if (reply.status !== 201) return []
    const dto = reply.body as SessionDto
    same(this.shown, "the created session", dtoView(dto), sessionView(r, booking))
    expectEntry(r, "sessions", ["insert"], { id: dto.id })
    m.sessions.push({
      id: dto.id,
      ...booking,
      coach: coachIndex,
      athletes: [...booking.athletes],
      series: null,
      occurrenceStart: null,
      overridden: false,
      capacity: null,
      replies: new Map()
    })
    this.shown += ` -> session ${dto.id}`
    return []
  }
}

/** A 409 names the sessions holding the time: at least one of those the model expects. */
const expectNamed = (shown: string, reply: Reply, conflicts: ReadonlyArray<ModelSession>) => {
  const named = conflicts.some((s) => new RegExp(`\\b${s.id}\\b`).test(reply.text))
  if (!named) fail(shown, `the 409 names none of ${conflicts.map((s) => s.id).join(", ")}: ${reply.text}`)
}

export interface SessionChange {
  readonly athletes?: ReadonlyArray<number>
  readonly coach?: number
  readonly creneau?: string
  readonly duree?: number
}
const changeLabel = (change: SessionChange, unknownAthlete: boolean) =>
  `{${
    [
      change.athletes === undefined
        ? ""
        : `athletes: ${athletesName(change.athletes)}${unknownAthlete ? "+unknown" : ""}`,
      change.coach === undefined ? "" : `coach: ${coachName(change.coach)}`,
      change.creneau === undefined ? "" : `creneau: ${change.creneau}`,
      change.duree === undefined ? "" : `duree: ${change.duree}`
    ].filter((part) => part !== "").join(", ")
  }}`
const changeBody = (r: Real, change: SessionChange, unknownAthlete: boolean) => ({
  ...(change.athletes === undefined ? {} : {
    athleteIds: [...change.athletes.map((i) => r.athletes[i]!.id), ...(unknownAthlete ? [missingAthleteId] : [])]
  }),
  ...(change.coach === undefined ? {} : { coachId: r.coaches[change.coach]!.id }),
  ...(change.creneau === undefined ? {} : { creneau: change.creneau }),
  ...(change.duree === undefined ? {} : { duree: change.duree })
})
const changed = (s: Booking, change: SessionChange): Booking => ({
  coach: change.coach ?? s.coach,
  groupe: s.groupe ?? null,
  athletes: change.athletes === undefined ? s.athletes : [...new Set(change.athletes)].sort(),
  creneau: change.creneau ?? s.creneau,
  duree: change.duree ?? s.duree
})
const applyChange = (m: Readonly<Model>, s: ModelSession, change: SessionChange) => {
  // The athletes first, on the session's day before a move: a change of both at once on a
  // session of a group is left out where the two days would decide differently (PatchSession).
  if (change.athletes !== undefined) setAthletes(m, s, change.athletes)
  if (change.coach !== undefined) s.coach = change.coach
  if (change.creneau !== undefined) s.creneau = change.creneau
  if (change.duree !== undefined) s.duree = change.duree
}
const onlyCoach = (change: SessionChange) => Object.keys(change).every((key) => key === "coach")

/**
 * Athletes taken out of a session of a group while it moves to another day: whether "still
 * invited" is judged on the old day or the new one is not written down, so where the two differ
 * for an athlete with a reply such a change is left out.
 */
const movedOutUnclear = (m: Readonly<Model>, s: ModelSession, change: SessionChange) => {
  const after = change.creneau
  if (s.groupe === null || change.athletes === undefined || after === undefined) return false
  return [...s.replies.keys()].some((athlete) =>
    s.athletes.includes(athlete) && !change.athletes!.includes(athlete) &&
    (memberOn(m, athlete, s.groupe!, dayOf(s)) !== undefined) !==
      (memberOn(m, athlete, s.groupe!, after.slice(0, 10)) !== undefined)
  )
}

export class PatchSession extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly pick: number | "missing",
    readonly change: SessionChange,
    readonly unknownAthlete: boolean
  ) {
    super()
  }
  private target(m: Readonly<Model>) {
    return this.pick === "missing" ? undefined : pickOf(m.sessions, this.pick)
  }
  override check(m: Readonly<Model>) {
    if (this.pick === "missing") return true
    if (m.sessions.length === 0) return false
    // An occurrence moved into the past by itself: whether a later cancel of its series deletes
    // it (its occurrence time is to come, its creneau is not) is left out (see the report of issue 36).
    const s = this.target(m)!
    if (movedOutUnclear(m, s, this.change)) return false
    return s.series === null || this.change.creneau === undefined || this.change.creneau > clubNow(modelTimeZone)
  }
  describe() {
    return `${actorName(this.actor)} PATCH /planning/sessions/{${
      this.pick === "missing" ? "missing" : `#${this.pick}`
    }} ${changeLabel(this.change, this.unknownAthlete)}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const s = this.target(m)
    this.shown = `${actorName(a)} PATCH ${sessionLabel(s)} ${changeLabel(this.change, this.unknownAthlete)}`
    const after = s === undefined ? undefined : changed(s, this.change)
    const conflicts = s === undefined ? [] : conflictsOf(m, [after!], new Set([s.id]))
    const adminMayAct = a.kind === "admin" && onlyCoach(this.change)
    const expected = expectFirst([
      [athleteRole(a), [403], "session.update is Coach"],
      [a.kind === "admin" && !adminMayAct, [403], "an admin changes only coachId"],
      [s === undefined, [404], "no such session"],
      [
        a.kind === "coach" && s !== undefined && !owns(a, s.coach, s.groupe),
        withUnknown(this.unknownAthlete && this.change.athletes !== undefined, 403),
        "another coach's session"
      ],
      [this.unknownAthlete && this.change.athletes !== undefined, [400], "an unknown athlete"],
      [conflicts.length > 0, [409], `double booking with ${conflicts.map(sessionLabel).join("; ")}`]
    ], { statuses: [200], why: "a valid change" })
    const id = s?.id ?? missingId
    const reply = await send(
      r,
      this.shown,
      a,
      "PATCH",
      `/planning/sessions/${id}`,
      changeBody(r, this.change, this.unknownAthlete)
    )
    expectStatus(this.shown, reply, expected)
    if (reply.status === 409) expectNamed(this.shown, reply, conflicts)
    if (reply.status !== 200 || s === undefined) return []
    same(this.shown, "the changed session", dtoView(reply.body as SessionDto), sessionView(r, after!))
    if (after!.coach !== s.coach || after!.creneau !== s.creneau || after!.duree !== s.duree) {
      expectEntry(r, "sessions", ["update"], { id: s.id })
    }
    applyChange(m, s, this.change)
    if (s.series !== null) s.overridden = true
    return [s.id]
  }
}

/** The seed's delete (`DELETE /session/delete/{id}`) keeps the seed's rule: any coach. */
export class DeleteSession extends ModelCommand {
  constructor(readonly actor: Actor, readonly pick: number) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.sessions.length > 0
  }
  describe() {
    return `${actorName(this.actor)} DELETE /session/delete/{#${this.pick}}`
  }
  async act(m: Model, r: Real) {
    const s = pickOf(m.sessions, this.pick)
    this.shown = `${actorName(this.actor)} DELETE /session/delete/${s.id} (${sessionLabel(s)})`
    const reply = await send(r, this.shown, this.actor, "DELETE", `/session/delete/${s.id}`)
    expectStatus(
      this.shown,
      reply,
      this.actor.kind === "coach"
        ? { statuses: [200], why: "the seed's delete: any coach" }
        : { statuses: [403], why: "session.delete is Coach" }
    )
    if (reply.status === 200) {
      m.sessions.splice(m.sessions.indexOf(s), 1)
      expectEntry(r, "sessions", ["delete"], { id: s.id })
    }
    return []
  }
}

export class CreateSeries extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly coachChoice: number | "self",
    readonly athletes: ReadonlyArray<number>,
    readonly unknownAthlete: boolean,
    readonly weeksBefore: number,
    readonly time: string,
    readonly duree: number,
    readonly count: number,
    readonly groupe: number | null = null
  ) {
    super()
  }
  private start() {
    return `${addDays(seriesDay, -7 * this.weeksBefore)}T${this.time}:00`
  }
  describe() {
    return `${actorName(this.actor)} POST /planning/series {coach: ${
      this.coachChoice === "self" ? "absent" : coachName(this.coachChoice)
    }, athletes: ${athletesName(this.athletes)}${
      this.unknownAthlete ? "+unknown" : ""
    }, start: ${this.start()}, duree: ${this.duree}, rrule: FREQ=WEEKLY;COUNT=${this.count}${
      this.groupe === null ? "" : `, groupe: ${groupName(this.groupe)}`
    }}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const coachIndex = this.coachChoice === "self" ? (a.kind === "coach" ? a.i : null) : this.coachChoice
    const athletes = [...new Set(this.athletes)].sort()
    const starts = Array.from(
      { length: this.count },
      (_, k) => `${addDays(this.start().slice(0, 10), 7 * k)}${this.start().slice(10)}`
    )
    const bookings = starts.map((creneau) => ({ coach: coachIndex, athletes, creneau, duree: this.duree }))
    const conflicts = conflictsOf(m, bookings)
    const expected = expectFirst([
      [a.kind !== "coach", [403], "series.create is Coach"],
      [
        a.kind === "coach" && coachIndex !== a.i,
        withUnknown(this.unknownAthlete, 403),
        "a coach creates series only for itself"
      ],
      [this.unknownAthlete, [400], "an unknown athlete"],
      [conflicts.length > 0, [409], `double booking with ${conflicts.map(sessionLabel).join("; ")}`]
    ], { statuses: [201], why: "a valid series" })
    const body = {
      name: "Model series",
      ...(this.groupe === null ? {} : { groupe: r.groups[this.groupe]!.name }),
      ...(this.coachChoice === "self" ? {} : { coachId: r.coaches[this.coachChoice]!.id }),
      athleteIds: [...this.athletes.map((i) => r.athletes[i]!.id), ...(this.unknownAthlete ? [missingAthleteId] : [])],
      start: this.start(),
      duree: this.duree,
      rrule: `FREQ=WEEKLY;COUNT=${this.count}`
    }
    const reply = await send(r, this.shown, a, "POST", "/planning/series", body)
    expectStatus(this.shown, reply, expected)
    if (reply.status === 409) expectNamed(this.shown, reply, conflicts)
    if (reply.status !== 201) return []
    const dto = reply.body as SeriesDto
    same(this.shown, "the occurrences' times", dto.occurrences.map((o) => o.occurrenceStart), starts)
    const series: ModelSeries = {
      id: dto.id,
      coach: coachIndex,
      groupe: this.groupe,
      athletes,
      duree: this.duree,
      start: this.start()
    }
    m.series.push(series)
    expectEntry(r, "series", ["insert"], { id: dto.id })
    for (const occurrence of dto.occurrences) expectEntry(r, "sessions", ["insert"], { id: occurrence.sessionId })
    for (const [k, occurrence] of dto.occurrences.entries()) {
      m.sessions.push({
        id: occurrence.sessionId,
        coach: coachIndex,
        groupe: this.groupe,
        athletes: [...athletes],
        creneau: starts[k]!,
        duree: this.duree,
        series,
        occurrenceStart: starts[k]!,
        overridden: false,
        capacity: null,
        replies: new Map()
      })
    }
    this.shown += ` -> series ${dto.id}, sessions ${dto.occurrences.map((o) => o.sessionId).join(",")}`
    return []
  }
}

interface SeriesDto {
  readonly id: number
  readonly occurrences: ReadonlyArray<{ sessionId: number; occurrenceStart: string; overridden: boolean }>
}

const seriesWithOccurrences = (m: Readonly<Model>) =>
  m.series.filter((series) => occurrencesOf(m as Model, series).length > 0)
const seriesLabel = (m: Model, series: ModelSeries) =>
  `series ${series.id} (${coachName(series.coach)}, ${athletesName(series.athletes)}, sessions ${
    occurrencesOf(m, series).map((s) => s.id).join(",")
  })`

/** The occurrence a command names, and who owns what it acts on: the occurrence's coach, or the series' one. */
const resolveOccurrence = (
  m: Readonly<Model>,
  seriesPick: number,
  occurrencePick: number,
  scope: "one" | "following"
) => {
  const series = pickOf(seriesWithOccurrences(m), seriesPick)
  const occurrences = occurrencesOf(m as Model, series)
  const occurrence = pickOf(occurrences, occurrencePick)
  const reached = scope === "one"
    ? [occurrence]
    : occurrences.filter((s) => s.occurrenceStart! >= occurrence.occurrenceStart!)
  return { series, occurrence, reached, owner: scope === "one" ? occurrence.coach : series.coach }
}

/**
 * An occurrence moved into the past by itself (`PATCH /planning/sessions`) among those a "following"
 * command reaches: whether it moves with them is not written down, so such a case is left out.
 */
const startedBeside = (occurrence: ModelSession, reached: ReadonlyArray<ModelSession>) => {
  const now = clubNow(modelTimeZone)
  return reached.some((s) => s !== occurrence && s.creneau <= now)
}

export class PatchOccurrence extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly seriesPick: number,
    readonly occurrencePick: number,
    readonly scope: "one" | "following",
    readonly change: SessionChange,
    readonly unknownAthlete: boolean
  ) {
    super()
  }
  override check(m: Readonly<Model>) {
    if (seriesWithOccurrences(m).length === 0) return false
    // Whose a "following" change is when the occurrence was handed to another coach by itself is
    // not written down: such a case is left out rather than guessed.
    const { occurrence, owner, reached } = resolveOccurrence(m, this.seriesPick, this.occurrencePick, this.scope)
    return occurrence.coach === owner && !(this.scope === "following" && this.change.creneau !== undefined) &&
      !startedBeside(occurrence, reached) && !movedOutUnclear(m, occurrence, this.change)
  }
  describe() {
    return `${
      actorName(this.actor)
    } PATCH /planning/series/{#${this.seriesPick}}/occurrences/{#${this.occurrencePick}}?scope=${this.scope} ${
      changeLabel(this.change, this.unknownAthlete)
    }`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const { occurrence, owner, reached, series } = resolveOccurrence(
      m,
      this.seriesPick,
      this.occurrencePick,
      this.scope
    )
    this.shown = `${
      actorName(a)
    } PATCH /planning/series/${series.id}/occurrences/${occurrence.id}?scope=${this.scope} ${
      changeLabel(this.change, this.unknownAthlete)
    } on ${seriesLabel(m, series)}, ${sessionLabel(occurrence)}`
    const changing = this.scope === "one" ? reached : reached.filter((s) => !s.overridden)
    const changedIds = new Set(changing.map((s) => s.id))
    const conflicts = conflictsOf(m, changing.map((s) => changed(s, this.change)), changedIds)
    const now = clubNow(modelTimeZone)
    const past = this.change.creneau !== undefined && this.change.creneau <= now
    const expected = expectFirst([
      [athleteRole(a), [403], "series.update is Coach"],
      [a.kind === "admin" && !onlyCoach(this.change), [403], "an admin changes only coachId"],
      [
        a.kind === "coach" && !owns(a, owner, series.groupe),
        withUnknown(this.unknownAthlete && this.change.athletes !== undefined, 403),
        "another coach's series or occurrence"
      ],
      [occurrence.creneau <= now, [400], "the occurrence has started"],
      [past, [400], "a creneau in the past"],
      [this.unknownAthlete && this.change.athletes !== undefined, [400], "an unknown athlete"],
      [conflicts.length > 0, [409], `double booking with ${conflicts.map(sessionLabel).join("; ")}`]
    ], { statuses: [200], why: "a valid change" })
    const reply = await send(
      r,
      this.shown,
      a,
      "PATCH",
      `/planning/series/${series.id}/occurrences/${occurrence.id}?scope=${this.scope}`,
      changeBody(r, this.change, this.unknownAthlete)
    )
    expectStatus(this.shown, reply, expected)
    if (reply.status === 409) expectNamed(this.shown, reply, conflicts)
    if (reply.status !== 200) return []
    const dto = reply.body as SeriesDto
    for (const s of changing) applyChange(m, s, this.change)
    if (this.scope === "one") {
      occurrence.overridden = true
      same(this.shown, "the answer's series", dto.id, series.id)
    } else {
      // The rule gave an occurrence before F: a new series continues it from F (docs/schedule/series.md).
      const continued = series.start < occurrence.occurrenceStart!
      const holder: ModelSeries = continued
        ? { ...series, id: dto.id, start: occurrence.occurrenceStart! }
        : series
      if (continued) {
        if (dto.id === series.id) fail(this.shown, `expected a new series continuing ${series.id}, got the same`)
        m.series.push(holder)
        for (const s of reached) s.series = holder
      } else {
        same(this.shown, "the answer's series", dto.id, series.id)
      }
      if (this.change.athletes !== undefined) holder.athletes = [...new Set(this.change.athletes)].sort()
      if (this.change.coach !== undefined) holder.coach = this.change.coach
      if (this.change.duree !== undefined) holder.duree = this.change.duree
    }
    same(
      this.shown,
      "the answer's occurrences",
      dto.occurrences.map((o) => o.sessionId).filter((id) => reached.some((s) => s.id === id)).sort(),
      reached.map((s) => s.id).sort()
    )
    this.shown += ` -> series ${dto.id}`
    return changing.map((s) => s.id)
  }
}

export class CancelOccurrence extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly seriesPick: number,
    readonly occurrencePick: number,
    readonly scope: "one" | "following"
  ) {
    super()
  }
  override check(m: Readonly<Model>) {
    if (seriesWithOccurrences(m).length === 0) return false
    const { occurrence, owner, reached } = resolveOccurrence(m, this.seriesPick, this.occurrencePick, this.scope)
    return occurrence.coach === owner && !startedBeside(occurrence, reached)
  }
  describe() {
    return `${
      actorName(this.actor)
    } DELETE /planning/series/{#${this.seriesPick}}/occurrences/{#${this.occurrencePick}}?scope=${this.scope}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const { occurrence, owner, reached, series } = resolveOccurrence(
      m,
      this.seriesPick,
      this.occurrencePick,
      this.scope
    )
    this.shown = `${
      actorName(a)
    } DELETE /planning/series/${series.id}/occurrences/${occurrence.id}?scope=${this.scope} on ${
      seriesLabel(m, series)
    }`
    const expected = expectFirst([
      [a.kind !== "coach", [403], "series.cancel is Coach (an admin changes only coachId)"],
      [!owns(a, owner, series.groupe), [403], "another coach's series or occurrence"],
      [occurrence.creneau <= clubNow(modelTimeZone), [400], "the occurrence has started"]
    ], { statuses: [204], why: "a valid cancellation" })
    const reply = await send(
      r,
      this.shown,
      a,
      "DELETE",
      `/planning/series/${series.id}/occurrences/${occurrence.id}?scope=${this.scope}`
    )
    expectStatus(this.shown, reply, expected)
    if (reply.status === 204) m.sessions = m.sessions.filter((s) => !reached.includes(s))
    return []
  }
}

export class CancelSeries extends ModelCommand {
  constructor(readonly actor: Actor, readonly seriesPick: number) {
    super()
  }
  override check(m: Readonly<Model>) {
    return seriesWithOccurrences(m).length > 0
  }
  describe() {
    return `${actorName(this.actor)} DELETE /planning/series/{#${this.seriesPick}}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const series = pickOf(seriesWithOccurrences(m), this.seriesPick)
    this.shown = `${actorName(a)} DELETE /planning/series/${series.id} on ${seriesLabel(m, series)}`
    const expected = expectFirst([
      [a.kind !== "coach", [403], "series.cancel is Coach"],
      [!owns(a, series.coach, series.groupe), [403], "another coach's series"]
    ], { statuses: [204], why: "a valid cancellation" })
    const reply = await send(r, this.shown, a, "DELETE", `/planning/series/${series.id}`)
    expectStatus(this.shown, reply, expected)
    // From now on: occurrences that have started stay.
    const now = clubNow(modelTimeZone)
    if (reply.status === 204) m.sessions = m.sessions.filter((s) => s.series !== series || s.creneau <= now)
    return []
  }
}

export class Settings extends ModelCommand {
  constructor(readonly actor: Actor, readonly pick: number, readonly capacity: number | null) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.sessions.length > 0
  }
  describe() {
    return `${actorName(this.actor)} PUT /attendance/sessions/{#${this.pick}}/settings {capacity: ${this.capacity}}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const s = pickOf(m.sessions, this.pick)
    this.shown = `${actorName(a)} PUT /attendance/sessions/${s.id}/settings {capacity: ${this.capacity}} on ${
      sessionLabel(s)
    }`
    const expected = expectFirst([
      [a.kind !== "coach", [403], "attendance.configure is Coach"],
      [!owns(a, s.coach, s.groupe), [403], "another coach's session (nor of its group or one above)"]
    ], { statuses: [200], why: "the session's coach" })
    const reply = await send(r, this.shown, a, "PUT", `/attendance/sessions/${s.id}/settings`, {
      capacity: this.capacity
    })
    expectStatus(this.shown, reply, expected)
    if (reply.status !== 200) return []
    s.capacity = this.capacity
    promote(s)
    same(this.shown, "the answer's replies", repliesView(reply.body as SessionRepliesDto), expectedReplies(r, s))
    return [s.id]
  }
}

/**
 * The sessions a command picks among: every one, or (`membership`) those that invite the athlete
 * only as a member of their group, which random picks among all would seldom reach.
 */
export type Among = "any" | "membership"
const sessionsAmong = (m: Readonly<Model>, among: Among, athlete: number) =>
  among === "any"
    ? m.sessions
    : m.sessions.filter((s) => !s.athletes.includes(athlete) && memberOfSession(m, s, athlete) !== undefined)
const amongLabel = (among: Among) => among === "any" ? "" : " where a member"

export class ReplyFor extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly athlete: number,
    readonly pick: number,
    readonly answer: Answer,
    readonly among: Among = "any",
    readonly scope: "one" | "following" = "one"
  ) {
    super()
  }
  override check(m: Readonly<Model>) {
    const candidates = sessionsAmong(m, this.among, this.athlete)
    if (candidates.length === 0) return false
    // "Every later occurrence": later by the series' times; an occurrence moved by itself makes
    // "later" a question the docs leave open, so such a series is left out of `following`.
    const s = pickOf(candidates, this.pick)
    return this.scope === "one" || s.series === null ||
      occurrencesOf(m as Model, s.series).every((o) => o.creneau === o.occurrenceStart)
  }
  private query() {
    return this.scope === "one" ? "" : "?scope=following"
  }
  describe() {
    return `${actorName(this.actor)} PUT /attendance/athletes/{athlete${this.athlete + 1}}/replies/{#${this.pick}${
      amongLabel(this.among)
    }}${this.query()} {answer: ${this.answer}}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const s = pickOf(sessionsAmong(m, this.among, this.athlete), this.pick)
    this.shown = `${actorName(a)} PUT /attendance/athletes/{athlete${
      this.athlete + 1
    }}/replies/${s.id}${this.query()} {answer: ${this.answer}} on ${sessionLabel(s)}`
    // Invited: one of the session's athletes, or a member of its group on its day.
    const outside = !invites(m, s, this.athlete)
    const closed = s.creneau <= clubNow(modelTimeZone)
    const expected = expectFirst([
      [a.kind === "admin", [403], "attendance.reply is Coach, the athlete itself or its guardian"],
      [a.kind === "athlete" && a.i !== this.athlete, [403], "an athlete replies only for itself"],
      [
        a.kind === "guardian" && !guardedAthletes.includes(this.athlete),
        [403],
        "a guardian replies only for the athletes it guards"
      ],
      [
        a.kind === "coach" && !owns(a, s.coach, s.groupe),
        outside || closed ? [403, 400, 409] : [403],
        "another coach's session, nor of its group or one above (which refusal comes first is not written down)"
      ],
      [outside && closed, [400, 409], "not invited (neither its athlete nor a member that day), and replies closed"],
      [outside, [400], "not invited: neither one of the session's athletes nor a member of its group that day"],
      [closed, [409], "replies closed at the session's start"]
    ], { statuses: [200], why: "a valid reply" })
    const reply = await send(
      r,
      this.shown,
      a,
      "PUT",
      `/attendance/athletes/${r.athletes[this.athlete]!.id}/replies/${s.id}${this.query()}`,
      { answer: this.answer }
    )
    expectStatus(this.shown, reply, expected)
    if (outside && !closed) expectNaming(this.shown, reply, 400, "athleteId")
    if (reply.status !== 200) return []
    // `following` on an occurrence: it and every later occurrence of its series that invites the
    // athlete (its own, or a member that day) and whose replies are open (docs/attendance.md).
    const now = clubNow(modelTimeZone)
    const written = this.scope === "following" && s.series !== null
      ? [
        s,
        ...occurrencesOf(m, s.series).filter((o) =>
          o.occurrenceStart! > s.occurrenceStart! && invites(m, o, this.athlete) && o.creneau > now
        )
      ]
      : [s]
    const athleteId = r.athletes[this.athlete]!.id
    for (const session of written) {
      // A yes repeated keeps its place, a no or a maybe repeated changes nothing: no entry is due.
      if (session.replies.get(this.athlete)?.answer !== this.answer) {
        expectEntry(r, "session_replies", ["insert", "update"], { session_id: session.id, athlete_id: athleteId })
      }
      applyReply(m, session, this.athlete, this.answer)
    }
    same(
      this.shown,
      "the replies written",
      (reply.body as ReadonlyArray<ReplyDto & { sessionId: number }>)
        .map(({ answer, athleteId, sessionId, state, waitingPosition }) => ({
          sessionId,
          athleteId,
          answer,
          state,
          waitingPosition
        }))
        .sort((x, y) => x.sessionId - y.sessionId),
      written.map((session) => ({
        sessionId: session.id,
        ...expectedReplies(r, session).replies.find((entry) => entry.athleteId === athleteId)!
      })).sort((x, y) => x.sessionId - y.sessionId)
    )
    return written.map((session) => session.id)
  }
}

export class Mark extends ModelCommand {
  constructor(
    readonly actor: Actor,
    readonly pick: number,
    readonly athlete: number,
    readonly status: "present" | "late" | "absent" | "excused",
    readonly among: Among = "any"
  ) {
    super()
  }
  override check(m: Readonly<Model>) {
    return sessionsAmong(m, this.among, this.athlete).length > 0
  }
  describe() {
    return `${actorName(this.actor)} PUT /attendance/sessions/{#${this.pick}${
      amongLabel(this.among)
    }}/presence {athlete${this.athlete + 1}: ${this.status}}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const s = pickOf(sessionsAmong(m, this.among, this.athlete), this.pick)
    this.shown = `${actorName(a)} PUT /attendance/sessions/${s.id}/presence {athlete${
      this.athlete + 1
    }: ${this.status}} on ${sessionLabel(s)}`
    const outside = !invites(m, s, this.athlete)
    const notStarted = s.creneau > clubNow(modelTimeZone)
    const expected = expectFirst([
      [a.kind !== "coach", [403], "only the session's coach records marks"],
      [
        !owns(a, s.coach, s.groupe),
        outside || notStarted ? [403, 400, 409] : [403],
        "another coach's session (which refusal comes first is not written down)"
      ],
      [outside && notStarted, [400, 409], "not invited, and not started"],
      [outside, [400], "not invited: neither one of the session's athletes nor a member of its group that day"],
      [notStarted, [409], "the session has not started"]
    ], { statuses: [200], why: "the session's coach, once started" })
    const athleteId = r.athletes[this.athlete]!.id
    const reply = await send(r, this.shown, a, "PUT", `/attendance/sessions/${s.id}/presence`, {
      marks: [{ athleteId, status: this.status }]
    })
    expectStatus(this.shown, reply, expected)
    if (reply.status !== 200) return []
    const marks = (reply.body as { marks: ReadonlyArray<{ athleteId: number; status: string }> }).marks
    same(this.shown, "the athlete's mark", marks.find((mark) => mark.athleteId === athleteId)?.status, this.status)
    return []
  }
}

export class ReadConflicts extends ModelCommand {
  constructor(readonly actor: Actor) {
    super()
  }
  describe() {
    return `${actorName(this.actor)} GET /planning/conflicts`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    type Pair = { sessionId: number; otherSessionId: number }
    const pairs: Array<Pair> = []
    // The conflicts are paged (`{items, nextCursor}`); a bounded number of the largest pages.
    let cursor: string | null = null
    for (let page = 0; page < 20; page++) {
      const query: string = cursor === null ? "?limit=500" : `?limit=500&cursor=${encodeURIComponent(cursor)}`
      const reply = await send(r, this.shown, a, "GET", `/planning/conflicts${query}`)
      expectStatus(
        this.shown,
        reply,
        athleteRole(a)
          ? { statuses: [403], why: "conflict.read is Admin, Coach" }
          : { statuses: [200], why: "conflict.read is Admin, Coach" }
      )
      if (reply.status !== 200) return []
      const body = reply.body as { items: ReadonlyArray<Pair>; nextCursor: string | null }
      pairs.push(...body.items)
      cursor = body.nextCursor
      if (cursor === null) break
    }
    const ours = new Set(m.sessions.map((s) => s.id))
    const listed = pairs.filter((pair) => ours.has(pair.sessionId) || ours.has(pair.otherSessionId))
    // The model never accepts a double booking, so none of the cast's sessions is in a pair.
    same(this.shown, "the cast's double bookings", listed, [])
    return []
  }
}

interface MembershipDto {
  readonly id: number
  readonly groupId: number
  readonly athleteId: number
  readonly from: string
  readonly until: string | null
}

const membershipView = (r: Real, x: ModelMembership) => ({
  id: x.id,
  groupId: r.groups[x.group]!.id,
  athleteId: r.athletes[x.athlete]!.id,
  from: x.from,
  until: x.until
})
const membershipLabel = (x: ModelMembership) =>
  `membership ${x.id} (athlete${x.athlete + 1} in ${groupName(x.group)}, ${x.from}..${x.until ?? ""})`

/**
 * The group's history as the API lists it equals the model's: every membership, ended ones
 * included, each with the days it was given (ended, never rewritten).
 */
const checkMemberships = async (m: Model, r: Real, shown: string, group: number) => {
  const reply = await send(r, shown, admin, "GET", `/groups/${r.groups[group]!.id}/memberships?limit=500`)
  expectStatus(shown, reply, { statuses: [200], why: "any role reads memberships" })
  same(
    shown,
    `the memberships of ${groupName(group)}`,
    [...(reply.body as { items: ReadonlyArray<MembershipDto> }).items].sort((x, y) => x.id - y.id),
    m.memberships.filter((x) => x.group === group).map((x) => membershipView(r, x)).sort((x, y) => x.id - y.id)
  )
}
/** The sessions of a group: their replies are checked after a membership changes (a reply made is kept). */
const sessionsOf = (m: Model, group: number) => m.sessions.filter((s) => s.groupe === group).map((s) => s.id)

/**
 * Starts a membership in `group` from `from`, or, with `near` when the model has sessions of a
 * group, in the group of one of them from a day around that session's (`offset` days from it),
 * for an athlete that is not one of its own when there is one (`athlete` then picks among those).
 */
export class StartMembership extends ModelCommand {
  athlete: number
  group: number
  from: string
  constructor(
    readonly actor: Actor,
    athlete: number,
    group: number,
    from: string,
    readonly near?: { readonly pick: number; readonly offset: number }
  ) {
    super()
    this.athlete = athlete
    this.group = group
    this.from = from
  }
  describe() {
    return `${actorName(this.actor)} POST /groups/{${
      this.near === undefined ? groupName(this.group) : `group of #${this.near.pick}`
    }}/memberships {athlete${this.athlete + 1}, from: ${
      this.near === undefined ? this.from : `its day${this.near.offset < 0 ? "" : "+"}${this.near.offset}`
    }}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const grouped = m.sessions.filter((s) => s.groupe !== null)
    if (this.near !== undefined && grouped.length > 0) {
      const s = pickOf(grouped, this.near.pick)
      this.group = s.groupe!
      this.from = addDays(dayOf(s), this.near.offset)
      const others = [0, 1, 2, 3].filter((x) => !s.athletes.includes(x))
      if (others.length > 0) this.athlete = pickOf(others, this.athlete)
    }
    this.shown = `${actorName(a)} POST /groups/${r.groups[this.group]!.id}/memberships {athlete${
      this.athlete + 1
    }, from: ${this.from}} (${groupName(this.group)})`
    // Open-ended from `from`: it shares a day with another of the athlete's in the group unless that
    // one ended before `from`.
    const overlapping = m.memberships.filter((x) =>
      x.athlete === this.athlete && x.group === this.group && (x.until === null || x.until >= this.from)
    )
    const expected = expectFirst([
      [!manages(a, this.group), [403], "membership.manage: admins and the coaches of the group or of one above"],
      [overlapping.length > 0, [409], `shares a day with ${overlapping.map(membershipLabel).join("; ")}`]
    ], { statuses: [201], why: "a membership that shares no day with another" })
    const reply = await send(r, this.shown, a, "POST", `/groups/${r.groups[this.group]!.id}/memberships`, {
      athleteId: r.athletes[this.athlete]!.id,
      from: this.from
    })
    expectStatus(this.shown, reply, expected)
    expectNaming(this.shown, reply, 409, "from")
    if (reply.status === 201) {
      const dto = reply.body as MembershipDto
      const started = { id: dto.id, athlete: this.athlete, group: this.group, from: this.from, until: null }
      same(this.shown, "the membership started", dto, membershipView(r, started))
      m.memberships.push(started)
      expectEntry(r, "memberships", ["insert"], { id: dto.id })
      this.shown += ` -> membership ${dto.id}`
    }
    await checkMemberships(m, r, this.shown, this.group)
    return sessionsOf(m, this.group)
  }
}

export class EndMembership extends ModelCommand {
  constructor(readonly actor: Actor, readonly pick: number, readonly until: string) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.memberships.length > 0
  }
  describe() {
    return `${actorName(this.actor)} POST /memberships/{#${this.pick}}/end {until: ${this.until}}`
  }
  async act(m: Model, r: Real) {
    const a = this.actor
    const x = pickOf(m.memberships, this.pick)
    this.shown = `${actorName(a)} POST /memberships/${x.id}/end {until: ${this.until}} on ${membershipLabel(x)}`
    const ended = x.until !== null
    const before = this.until < x.from
    const expected = expectFirst([
      [!manages(a, x.group), [403], "membership.manage: admins and the coaches of the group or of one above"],
      [ended && before, [409, 400], "ended already, and before its from (which comes first is not written down)"],
      [ended, [409], "a membership is ended once, never rewritten"],
      [before, [400], "its last day before its first"]
    ], { statuses: [200], why: "ending an open membership" })
    const reply = await send(r, this.shown, a, "POST", `/memberships/${x.id}/end`, { until: this.until })
    expectStatus(this.shown, reply, expected)
    expectNaming(this.shown, reply, 409, "until")
    expectNaming(this.shown, reply, 400, "until")
    if (reply.status === 200) {
      x.until = this.until
      expectEntry(r, "memberships", ["update"], { id: x.id })
      same(this.shown, "the membership ended", reply.body, membershipView(r, x))
    }
    await checkMemberships(m, r, this.shown, x.group)
    return sessionsOf(m, x.group)
  }
}

/** Who is invited, as the model says: the session's athletes, and its group's members on its day. */
export class ReadInvited extends ModelCommand {
  constructor(readonly actor: Actor, readonly pick: number) {
    super()
  }
  override check(m: Readonly<Model>) {
    return m.sessions.length > 0
  }
  describe() {
    return `${actorName(this.actor)} GET /attendance/sessions/{#${this.pick}}/invited`
  }
  async act(m: Model, r: Real) {
    const s = pickOf(m.sessions, this.pick)
    this.shown = `${actorName(this.actor)} GET /attendance/sessions/${s.id}/invited on ${sessionLabel(s)}`
    const reply = await send(r, this.shown, this.actor, "GET", `/attendance/sessions/${s.id}/invited?limit=500`)
    expectStatus(this.shown, reply, { statuses: [200], why: "attendance.read is every role's" })
    const expected = r.athletes.flatMap((member, athlete) => {
      if (!invites(m, s, athlete)) return []
      const membership = memberOfSession(m, s, athlete)
      return [{
        athleteId: member.id,
        how: s.athletes.includes(athlete) ? "athlete" : "member",
        groupId: membership === undefined ? null : r.groups[membership.group]!.id,
        groupName: membership === undefined ? null : r.groups[membership.group]!.name
      }]
    }).sort((x, y) => x.athleteId - y.athleteId)
    const body = reply.body as { items: ReadonlyArray<Record<string, unknown>>; nextCursor: string | null }
    same(this.shown, "who is invited", body.items, expected)
    same(this.shown, "the last page", body.nextCursor, null)
    return []
  }
}

// ---------------------------------------------------------------------------------------------
// The audit trail, a person's export and erasure (issue 43, docs/privacy.md).

/** Admins read the trail; every other role is refused. A session's history holds its insert, and only its rows. */
export class ReadAudit extends ModelCommand {
  constructor(readonly actor: Actor, readonly pick: number) {
    super()
  }
  describe() {
    return `${actorName(this.actor)} GET /audit?recordType=sessions&recordId={#${this.pick}}`
  }
  async act(m: Model, r: Real) {
    const s = m.sessions.length === 0 ? undefined : pickOf(m.sessions, this.pick)
    const path = `/audit?limit=500${s === undefined ? "" : `&recordType=sessions&recordId=${s.id}`}`
    this.shown = `${actorName(this.actor)} GET ${path}`
    const reply = await send(r, this.shown, this.actor, "GET", path)
    expectStatus(this.shown, reply, { statuses: [this.actor.kind === "admin" ? 200 : 403], why: "audit.read is Admin" })
    if (reply.status !== 200) return []
    const items = (reply.body as { items: ReadonlyArray<AuditEntryDto> }).items
    same(
      this.shown,
      "newest first",
      items.map((entry) => entry.id),
      items.map((entry) => entry.id).sort((a, b) => b - a)
    )
    if (s === undefined) return []
    const others = items.filter((entry) => entry.recordType !== "sessions" || entry.records["id"] !== s.id)
    if (others.length > 0) fail(this.shown, `entries of other records: ${JSON.stringify(others.slice(0, 3))}`)
    if (!items.some((entry) => entry.operation === "insert")) fail(this.shown, `no insert of session ${s.id}`)
    return []
  }
}

type ExportPage = { readonly section: string; readonly rows: ReadonlyArray<Record<string, unknown>> }
const rowsOf = (pages: ReadonlyArray<ExportPage>, section: string) =>
  pages.filter((page) => page.section === section).flatMap((page) => page.rows)

/** An admin and the person read a person's export (rule `person.export`); on a database it lists their replies. */
export class ExportPerson extends ModelCommand {
  constructor(readonly actor: Actor, readonly who: number) {
    super()
  }
  describe() {
    return `${actorName(this.actor)} GET /people/{athlete${this.who + 1}}/export`
  }
  async act(m: Model, r: Real) {
    const person = r.athletes[this.who]!
    this.shown = `${actorName(this.actor)} GET /people/${person.userId}/export (athlete${this.who + 1})`
    const self = this.actor.kind === "athlete" && this.actor.i === this.who
    const reply = await send(r, this.shown, this.actor, "GET", `/people/${person.userId}/export`)
    expectStatus(this.shown, reply, {
      statuses: [this.actor.kind === "admin" || self ? 200 : 403],
      why: "person.export: admins and the person (a guardian's export of its athlete is not served)"
    })
    if (reply.status !== 200) return []
    const pages = reply.body as ReadonlyArray<ExportPage>
    same(this.shown, "the user exported", rowsOf(pages, "user").map((row) => row["id"]), [person.userId])
    if (!r.database) return []
    const byAnswer = (x: { session_id: number }, y: { session_id: number }) => x.session_id - y.session_id
    same(
      this.shown,
      "the replies exported",
      rowsOf(pages, "replies").map((row) => ({
        session_id: Number(row["session_id"]),
        answer: row["answer"],
        state: row["state"]
      })).sort(byAnswer),
      m.sessions.flatMap((s) => {
        const held = s.replies.get(this.who)
        return held === undefined ? [] : [{ session_id: s.id, answer: held.answer, state: held.state }]
      }).sort(byAnswer)
    )
    const runGroups = new Set(r.groups.map((group) => group.id))
    same(
      this.shown,
      "the run's memberships exported",
      rowsOf(pages, "memberships").filter((row) => runGroups.has(Number(row["group_id"])))
        .map((row) => Number(row["id"])).sort((a, b) => a - b),
      m.memberships.filter((x) => x.athlete === this.who).map((x) => x.id).sort((a, b) => a - b)
    )
    return []
  }
}

/** Days far ahead for the outsider's sessions, one per erasure: none meets another. */
let extraDay = Math.floor(Math.random() * 10_000)

/**
 * The erasure of a person made for it (not one of the cast): an athlete with a user that has an
 * email and a login, booked by the outsider coach in a session it replies yes to, with a reason
 * naming it. `actor` asks for the erasure (an admin's only, `person.erase`); an admin then erases.
 * Afterwards no answer names the person (the trail, their record, user and export), their login
 * and token fail, the session's counts stay, and erasing again answers the first erasure.
 */
export class EraseExtra extends ModelCommand {
  constructor(readonly actor: Actor) {
    super()
  }
  describe() {
    return `${actorName(this.actor)} POST /people/{an extra athlete}/erase`
  }
  async act(_m: Model, r: Real) {
    const adminIs = { ...identityOf(r, admin), label: "admin" }
    const outsiderIs = { userId: r.outsider.userId, role: "COACH" as const, label: "outsider" }
    const name = unique("Extra athlete")
    const login = { name: unique("model-extra"), password: unique("extra-password") }
    r.club.passwords.add(login.password)
    const email = `${login.name}@club.test`
    const texts = [name, login.name, email]
    const created = <A>(reply: Reply, status: number, what: string) => {
      expectStatus(this.shown, reply, { statuses: [status], why: what })
      return reply.body as A
    }
    const athlete = created<{ id: number }>(
      await sendAs(r, this.shown, r.admin, adminIs, "POST", "/athletes/create", {
        name,
        categorie: "Senior",
        niveau: "A"
      }),
      201,
      "an admin creates an athlete"
    )
    const user = created<{ id: number }>(
      await sendAs(r, this.shown, r.admin, adminIs, "POST", "/users/create", {
        ...login,
        role: "ATHLETE",
        email,
        athleteId: athlete.id
      }),
      201,
      "an admin creates its user"
    )
    this.shown = `${actorName(this.actor)} POST /people/${user.id}/erase (athlete ${athlete.id})`
    const token = created<{ token: string }>(
      await r.club.anonymous.post("/auth/login", login),
      200,
      "the person logs in"
    ).token
    const day = addDays("2080-01-01", extraDay++ % 20_000)
    const session = created<{ id: number }>(
      await sendAs(r, this.shown, r.outsider.caller, outsiderIs, "POST", "/planning/sessions", {
        name: "Extra",
        coachId: r.outsider.id,
        athleteIds: [athlete.id],
        creneau: `${day}T10:00:00`,
        duree: 60
      }),
      201,
      "the outsider books the person"
    )
    created(
      await sendAs(
        r,
        this.shown,
        r.outsider.caller,
        outsiderIs,
        "PUT",
        `/attendance/athletes/${athlete.id}/replies/${session.id}`,
        { answer: "yes", reason: `${name} comes` }
      ),
      200,
      "its coach replies for the person"
    )
    const before = created<ReadonlyArray<ExportPage>>(
      await sendAs(r, this.shown, r.admin, adminIs, "GET", `/people/${user.id}/export`),
      200,
      "an admin exports the person"
    )
    if (r.database) {
      same(this.shown, "the replies exported", rowsOf(before, "replies").map((row) => row["answer"]), ["yes"])
    }
    const erasing = this.actor.kind === "admin" ? this.actor : admin
    if (this.actor.kind !== "admin") {
      const refused = await send(r, this.shown, this.actor, "POST", `/people/${user.id}/erase`)
      expectStatus(this.shown, refused, { statuses: [403], why: "person.erase is Admin" })
    }
    const erased = created<Record<string, unknown>>(
      await send(r, this.shown, erasing, "POST", `/people/${user.id}/erase`),
      200,
      "an admin erases the person"
    )
    same(
      this.shown,
      "the erasure",
      { ...erased, erasedAtMs: typeof erased["erasedAtMs"] },
      { userId: user.id, athleteId: athlete.id, coachId: null, adminId: null, erasedAtMs: "number" }
    )
    expectEntry(r, "users", ["update"], { id: user.id })
    if (!r.erasedLoginTried) {
      r.erasedLoginTried = true
      const loginAgain = await r.club.anonymous.post("/auth/login", login)
      expectStatus(this.shown, loginAgain, { statuses: [401], why: "an erased person's login fails" })
    }
    expectStatus(this.shown, await r.club.withToken(token).get("/auth/me"), {
      statuses: [401],
      why: "an erased person's token is revoked"
    })
    const reads = [
      "/audit?limit=500",
      `/audit?recordType=athletes&recordId=${athlete.id}`,
      `/audit?recordType=users&recordId=${user.id}`,
      `/athletes/${athlete.id}`,
      `/users/${user.id}`,
      `/people/${user.id}/export`,
      `/attendance/sessions/${session.id}/replies`
    ]
    for (const path of reads) {
      const read = await sendAs(r, this.shown, r.admin, adminIs, "GET", path)
      expectStatus(this.shown, read, { statuses: [200], why: "an admin reads it" })
      const named = texts.filter((text) => read.text.includes(text))
      if (named.length > 0) fail(this.shown, `GET ${path} still names ${named.join(", ")}: ${read.text.slice(0, 400)}`)
    }
    const replies = created<SessionRepliesDto>(
      await sendAs(r, this.shown, r.admin, adminIs, "GET", `/attendance/sessions/${session.id}/replies`),
      200,
      "the replies are read"
    )
    same(this.shown, "the session's counts after the erasure", repliesView(replies), {
      capacity: null,
      confirmed: 1,
      waiting: 0,
      replies: [{ athleteId: athlete.id, answer: "yes", state: "confirmed", waitingPosition: null }]
    })
    const again = created<Record<string, unknown>>(
      await sendAs(r, this.shown, r.admin, adminIs, "POST", `/people/${user.id}/erase`),
      200,
      "erasing again answers the first erasure"
    )
    same(this.shown, "the erasure again", again, erased)
    created(
      await sendAs(r, this.shown, r.outsider.caller, outsiderIs, "DELETE", `/session/delete/${session.id}`),
      200,
      "the outsider deletes its session"
    )
    return []
  }
}

// ---------------------------------------------------------------------------------------------
// The generators.

const actorArb = fc.oneof(
  { arbitrary: fc.constant(admin), weight: 1 },
  { arbitrary: fc.constantFrom(coach(0), coach(1)), weight: 5 },
  { arbitrary: fc.integer({ min: 0, max: 3 }).map(athlete), weight: 2 },
  { arbitrary: fc.constant(guardian), weight: 1 }
)
const coachActorArb = fc.oneof(
  { arbitrary: fc.constantFrom(coach(0), coach(1)), weight: 6 },
  { arbitrary: fc.constant(admin), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 3 }).map(athlete), weight: 1 }
)
const athletesArb = fc.subarray([0, 1, 2, 3])
/** A session of one of the cast's groups more often than not. */
const groupeArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.constantFrom(0, 1, 2), weight: 3 }
)
/** Who tries to manage memberships: mostly admins and coaches, sometimes an athlete or the guardian. */
const managerArb = fc.oneof(
  { arbitrary: fc.constant(admin), weight: 2 },
  { arbitrary: fc.constantFrom(coach(0), coach(1)), weight: 4 },
  { arbitrary: fc.constantFrom(athlete(0), guardian), weight: 1 }
)
/** The days memberships start and end: the session days and the days around them, and a day long past. */
const membershipDayArb = fc.oneof(
  { arbitrary: fc.constant("2020-01-01"), weight: 1 },
  { arbitrary: fc.constantFrom(...sessionDays.flatMap((day) => [addDays(day, -1), day, addDays(day, 1)])), weight: 3 }
)
/** True about one time in fifteen: an unknown athlete among the ids sent. */
const rareArb = fc.nat({ max: 14 }).map((n) => n === 0)
const coachChoiceArb = fc.oneof(
  { arbitrary: fc.constant("self" as const), weight: 0 },
  { arbitrary: fc.constantFrom(0, 1), weight: 3 }
)
const creneauArb = fc.tuple(fc.constantFrom(...sessionDays), fc.constantFrom(...times)).map(([day, time]) =>
  `${day}T${time}:00`
)
const dureeArb = fc.constantFrom(...durees)
const pickArb = fc.nat({ max: 40 })
const answerArb = fc.constantFrom("yes" as const, "no" as const, "maybe" as const)
const changeArb = fc.record(
  { athletes: athletesArb, coach: fc.constantFrom(0, 1), creneau: creneauArb, duree: dureeArb },
  { requiredKeys: [] }
).filter((change) => Object.keys(change).length > 0)
const occurrenceChangeArb = fc.record(
  { athletes: athletesArb, coach: fc.constantFrom(0, 1), duree: dureeArb, creneau: creneauArb },
  { requiredKeys: [] }
).filter((change) => Object.keys(change).length > 0)

/** The commands drawn more often than once in a plain draw (see `modelCommands`). */
const weights = new Map<fc.Arbitrary<Command>, number>()
const weighing = (weight: number, arbitrary: fc.Arbitrary<Command>) => {
  weights.set(arbitrary, weight)
  return arbitrary
}

const weightedCommands: ReadonlyArray<fc.Arbitrary<Command>> = [
  fc.tuple(coachActorArb, coachChoiceArb, athletesArb, rareArb, creneauArb, dureeArb, groupeArb)
    .map(([a, c, athletes, unknown, creneau, duree, groupe]) =>
      new CreateSession(a, c, athletes, unknown, creneau, duree, groupe)
    ),
  fc.tuple(
    coachActorArb,
    coachChoiceArb,
    athletesArb,
    rareArb,
    fc.integer({ min: 0, max: 2 }),
    fc.constantFrom(...times),
    dureeArb,
    fc.integer({ min: 2, max: 3 }),
    groupeArb
  )
    .map(([a, c, athletes, unknown, weeks, time, duree, count, groupe]) =>
      new CreateSeries(a, c, athletes, unknown, weeks, time, duree, count, groupe)
    ),
  fc.tuple(
    actorArb,
    fc.oneof({ arbitrary: pickArb, weight: 12 }, { arbitrary: fc.constant("missing" as const), weight: 1 }),
    changeArb,
    rareArb
  )
    .map(([a, pick, change, unknown]) => new PatchSession(a, pick, change, unknown)),
  fc.tuple(
    actorArb,
    pickArb,
    pickArb,
    fc.constantFrom("one" as const, "following" as const),
    occurrenceChangeArb,
    rareArb
  )
    .map(([a, sp, op, scope, change, unknown]) => new PatchOccurrence(a, sp, op, scope, change, unknown)),
  fc.tuple(actorArb, pickArb, pickArb, fc.constantFrom("one" as const, "following" as const))
    .map(([a, sp, op, scope]) => new CancelOccurrence(a, sp, op, scope)),
  fc.tuple(actorArb, pickArb).map(([a, sp]) => new CancelSeries(a, sp)),
  fc.tuple(actorArb, pickArb).map(([a, pick]) => new DeleteSession(a, pick)),
  fc.tuple(actorArb, pickArb, fc.constantFrom(null, 0, 1, 2, 3)).map(([a, pick, capacity]) =>
    new Settings(a, pick, capacity)
  ),
  fc.tuple(
    actorArb,
    fc.integer({ min: 0, max: 3 }),
    pickArb,
    fc.constantFrom("yes" as const, "no" as const, "maybe" as const)
  )
    .map(([a, who, pick, answer]) => new ReplyFor(a, who, pick, answer)),
  fc.tuple(actorArb, fc.integer({ min: 0, max: 3 }), pickArb, fc.constant("yes" as const))
    .map(([a, who, pick, answer]) => new ReplyFor(a, who, pick, answer)),
  fc.tuple(
    actorArb,
    pickArb,
    fc.integer({ min: 0, max: 3 }),
    fc.constantFrom("present" as const, "late" as const, "absent" as const, "excused" as const)
  )
    .map(([a, pick, who, status]) => new Mark(a, pick, who, status)),
  fc.tuple(actorArb).map(([a]) => new ReadConflicts(a)),
  // Issue 41: memberships, replies by members and by the guardian, who is invited.
  fc.tuple(managerArb, fc.integer({ min: 0, max: 3 }), fc.constantFrom(0, 1, 2), membershipDayArb)
    .map(([a, who, group, from]) => new StartMembership(a, who, group, from)),
  fc.tuple(managerArb, pickArb, membershipDayArb).map(([a, pick, until]) => new EndMembership(a, pick, until)),
  weighing(
    4,
    fc.tuple(
      managerArb,
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(0, 1, 2),
      membershipDayArb,
      pickArb,
      fc.integer({ min: -1, max: 1 })
    )
      .map(([a, who, group, from, pick, offset]) => new StartMembership(a, who, group, from, { pick, offset }))
  ),
  weighing(
    3,
    fc.tuple(coachActorArb, coachChoiceArb, athletesArb, rareArb, creneauArb, dureeArb, fc.constantFrom(0, 1, 2))
      .map(([a, c, athletes, unknown, creneau, duree, groupe]) =>
        new CreateSession(a, c, athletes, unknown, creneau, duree, groupe)
      )
  ),
  fc.tuple(fc.integer({ min: 0, max: 3 }), pickArb, answerArb, fc.constantFrom("one" as const, "following" as const))
    .map(([who, pick, answer, scope]) => new ReplyFor(athlete(who), who, pick, answer, "any", scope)),
  fc.tuple(fc.integer({ min: 0, max: 3 }), pickArb, answerArb)
    .map(([who, pick, answer]) => new ReplyFor(guardian, who, pick, answer)),
  // Replies and marks on the sessions that invite the athlete by membership only.
  weighing(
    4,
    fc.tuple(
      fc.oneof(
        { arbitrary: fc.constant("self" as const), weight: 2 },
        { arbitrary: fc.constant(guardian), weight: 1 },
        { arbitrary: fc.constantFrom(coach(0), coach(1)), weight: 2 }
      ),
      fc.integer({ min: 0, max: 3 }),
      pickArb,
      answerArb,
      fc.constantFrom("one" as const, "following" as const)
    )
      .map(([a, who, pick, answer, scope]) =>
        new ReplyFor(a === "self" ? athlete(who) : a, who, pick, answer, "membership", scope)
      )
  ),
  weighing(
    2,
    fc.tuple(
      coachActorArb,
      pickArb,
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom("present" as const, "late" as const, "absent" as const, "excused" as const)
    )
      .map(([a, pick, who, status]) => new Mark(a, pick, who, status, "membership"))
  ),
  fc.tuple(actorArb, pickArb).map(([a, pick]) => new ReadInvited(a, pick)),
  // Issue 43: the audit trail (checked after every command too), a person's export and erasure.
  fc.tuple(actorArb, pickArb).map(([a, pick]) => new ReadAudit(a, pick)),
  fc.tuple(actorArb, fc.integer({ min: 0, max: 3 })).map(([a, who]) => new ExportPerson(a, who)),
  fc.tuple(managerArb).map(([a]) => new EraseExtra(a))
]
/**
 * How often each command is drawn: the issue 41 chain (a session of a group, a membership around
 * its day, a reply or a mark by a member who is not one of its athletes) must happen within a run
 * of a few commands, so its links weigh more than the rest.
 */
export const modelCommands = [
  fc.oneof(...weightedCommands.map((arbitrary) => ({ arbitrary, weight: weights.get(arbitrary) ?? 1 })))
]

/** One cast per club for the fixed sequences: logins are slow over the wire. */
const casts = new WeakMap<Club, Real>()

/** Runs `commands` on a fresh cast of `club`, as the property does: for the fixed sequences of the regression tests. */
export const runSequence = async (club: Club, commands: ReadonlyArray<Command>) => {
  let cast = casts.get(club)
  if (cast === undefined) {
    cast = await setUpCast(club, { commands: 0, requests: 0 })
    casts.set(club, cast)
  }
  const real = await clearedCast(cast)
  const stats = real.stats
  const model = emptyModel()
  for (const command of commands) {
    if (!command.check(model)) throw new Error(`${command.toString()}: its precondition does not hold`)
    await command.run(model, real)
  }
  return stats
}
