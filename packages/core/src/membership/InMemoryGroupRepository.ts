import { Effect, Layer, Option } from "effect"
import { EntityNotFound, InvalidValue, MembershipConflict } from "../shared/Errors.ts"
import type { AthleteId, CoachId, GroupId, MembershipId } from "../shared/Ids.ts"
import { InMemoryStore } from "../shared/InMemoryStore.ts"
import type { CalendarDate } from "../shared/LocalDateTime.ts"
import { traced } from "../shared/traced.ts"
import { appendEvents, InMemoryOutbox } from "../webhooks/InMemoryOutbox.ts"
import { membershipEvent } from "./Group.ts"
import { Group, type GroupCreate, type GroupUpdate, Membership, type MembershipStart } from "./Group.ts"
import { GroupRepository, type IdRange } from "./GroupRepository.ts"

const ascending = (a: number, b: number) => a - b

/** Whether the days `[from, until]` of two memberships meet (`until` null: open). */
const meet = (a: Membership, from: CalendarDate, until: CalendarDate | null) =>
  (a.until === null || a.until >= from) && (until === null || a.from <= until)

/** `GroupRepository` on the in-memory store; each operation is one synchronous step, every check before the first write. */
export const InMemoryGroupRepository = Layer.effect(
  GroupRepository,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const outbox = yield* InMemoryOutbox
    const { athletes, coaches, groups, memberships, series, sessionRevisions, sessions } = store

    /**
     * A group as answered: its coaches that still exist, ascending (PostgreSQL's `group_coaches`
     * rows go with a deleted coach).
     */
    const read = (group: Group) =>
      new Group({ ...group, coachIds: group.coachIds.filter((id) => coaches.has(id)).sort(ascending) })

    /** A membership counts while its athlete exists (PostgreSQL's rows go with a deleted athlete). */
    const live = (membership: Membership) => athletes.has(membership.athleteId)

    const page = <A extends { readonly id: number }>(rows: Iterable<A>, range: IdRange) =>
      [...rows].filter((row) => row.id > range.after).sort((a, b) => a.id - b.id).slice(0, range.limit)

    const nameTaken = (name: string, except?: GroupId) =>
      [...groups.values()].some((group) => group.name === name && group.id !== except)
        ? new MembershipConflict({ field: "name", reason: `another group is named '${name}'` })
        : undefined

    /** Whether `id` is `ancestor` or lies below it. */
    const isUnder = (id: GroupId, ancestor: GroupId) => {
      for (let at: GroupId | null = id; at !== null; at = groups.get(at)?.parentId ?? null) {
        if (at === ancestor) return true
      }
      return false
    }

    const create = traced("GroupRepository.create")(function*(input: GroupCreate) {
      const hasRoot = [...groups.values()].some((group) => group.parentId === null)
      if (input.parentId === null && hasRoot) {
        return yield* new InvalidValue({ field: "parentId", reason: "the club has its root group; name a parent" })
      }
      if (input.parentId !== null) {
        const unknown = groups.unknownReferences("parentId", [input.parentId])
        if (unknown !== undefined) return yield* unknown
      }
      const unknownCoaches = coaches.unknownReferences("coachIds", input.coachIds)
      if (unknownCoaches !== undefined) return yield* unknownCoaches
      const taken = nameTaken(input.name)
      if (taken !== undefined) return yield* taken
      const id = groups.newId(null) as GroupId
      const group = new Group({
        id,
        name: input.name,
        parentId: input.parentId,
        coachIds: [...new Set(input.coachIds)].sort(ascending)
      })
      return read(groups.insert(group))
    })

    const findById = traced("GroupRepository.findById")(function*(id: GroupId) {
      const group = groups.get(id)
      return group === undefined ? Option.none() : Option.some(read(group))
    })

    const list = traced("GroupRepository.list")(function*(range: IdRange) {
      return page(groups.values(), range).map(read)
    })

    const update = traced("GroupRepository.update")(function*(id: GroupId, change: GroupUpdate) {
      const old = groups.get(id)
      if (old === undefined) return Option.none()
      if (change.parentId !== undefined && change.parentId !== old.parentId) {
        if (change.parentId === id) {
          return yield* new InvalidValue({ field: "parentId", reason: "a group cannot be its own parent" })
        }
        const unknown = groups.unknownReferences("parentId", [change.parentId])
        if (unknown !== undefined) return yield* unknown
        if (isUnder(change.parentId, id)) {
          return yield* new MembershipConflict({
            field: "parentId",
            reason: `group ${change.parentId} lies below group ${id}; a group cannot move under itself`
          })
        }
      }
      if (change.coachIds !== undefined) {
        const unknown = coaches.unknownReferences("coachIds", change.coachIds)
        if (unknown !== undefined) return yield* unknown
      }
      if (change.name !== undefined) {
        const taken = nameTaken(change.name, id)
        if (taken !== undefined) return yield* taken
      }
      const group = groups.replace(
        new Group({
          id,
          name: change.name ?? old.name,
          parentId: change.parentId ?? old.parentId,
          coachIds: change.coachIds === undefined ? old.coachIds : [...new Set(change.coachIds)].sort(ascending)
        })
      )
      // The sessions and series of the group follow its name (docs/membership.md "Groups").
      if (change.name !== undefined && change.name !== old.name) {
        for (const session of sessions.values()) {
          if (session.groupe !== old.name) continue
          sessions.replace({ ...session, groupe: change.name })
          sessionRevisions.set(session.id, (sessionRevisions.get(session.id) ?? 0) + 1)
        }
        for (const stored of series.values()) {
          if (stored.groupe !== old.name) continue
          series.replace({ ...stored, groupe: change.name, revision: stored.revision + 1 })
        }
      }
      return Option.some(read(group))
    })

    const remove = traced("GroupRepository.remove")(function*(id: GroupId) {
      if (!groups.has(id)) return false
      if ([...groups.values()].some((group) => group.parentId === id)) {
        return yield* new MembershipConflict({
          field: "id",
          reason: `group ${id} has subgroups; move or delete them first`
        })
      }
      if ([...memberships.values()].some((membership) => membership.groupId === id && live(membership))) {
        return yield* new MembershipConflict({
          field: "id",
          reason: `group ${id} has memberships, kept as its history; it cannot be deleted`
        })
      }
      return groups.delete(id)
    })

    const coachesAbove = traced("GroupRepository.coachesAbove")(function*(id: GroupId) {
      if (!groups.has(id)) return Option.none()
      const found = new Set<CoachId>()
      for (let at = groups.get(id); at !== undefined; at = at.parentId === null ? undefined : groups.get(at.parentId)) {
        for (const coachId of read(at).coachIds) found.add(coachId)
      }
      return Option.some([...found].sort(ascending))
    })

    const ofCoach = traced("GroupRepository.ofCoach")(function*(coachId: CoachId, limit: number) {
      return page([...groups.values()].map(read).filter((group) => group.coachIds.includes(coachId)), {
        after: 0,
        limit
      })
    })

    const ofMemberOn = traced("GroupRepository.ofMemberOn")(
      function*(athleteId: AthleteId, day: CalendarDate, limit: number) {
        const ids = new Set(
          [...memberships.values()].filter((m) => m.athleteId === athleteId && live(m) && meet(m, day, day)).map((
            m
          ) => m.groupId)
        )
        return page([...ids].map((id) => read(groups.get(id)!)), { after: 0, limit })
      }
    )

    const start = traced("GroupRepository.start")(function*(groupId: GroupId, input: MembershipStart) {
      if (!groups.has(groupId)) return yield* new EntityNotFound({ entity: "Group", id: groupId })
      const unknown = athletes.unknownReferences("athleteId", [input.athleteId])
      if (unknown !== undefined) return yield* unknown
      const overlapping = [...memberships.values()].find((m) =>
        m.groupId === groupId && m.athleteId === input.athleteId && live(m) && meet(m, input.from, null)
      )
      if (overlapping !== undefined) {
        return yield* new MembershipConflict({
          field: "from",
          reason: `athlete ${input.athleteId} is a member of group ${groupId} on days from ${input.from} on already`
        })
      }
      const id = memberships.newId(null) as MembershipId
      const membership = memberships.insert(
        new Membership({ id, groupId, athleteId: input.athleteId, from: input.from, until: null })
      )
      yield* appendEvents(outbox, [membershipEvent("membershipStarted", membership)])
      return membership
    })

    const findMembership = traced("GroupRepository.findMembership")(function*(id: MembershipId) {
      const membership = memberships.get(id)
      return membership === undefined || !live(membership) ? Option.none() : Option.some(membership)
    })

    const end = traced("GroupRepository.end")(function*(id: MembershipId, until: CalendarDate) {
      const old = memberships.get(id)
      if (old === undefined || !live(old)) return Option.none()
      if (old.until !== null) {
        return yield* new MembershipConflict({
          field: "until",
          reason: `membership ${id} ended on ${old.until} already; a return is a new membership`
        })
      }
      if (until < old.from) {
        return yield* new InvalidValue({ field: "until", reason: `before the membership's first day (${old.from})` })
      }
      const ended = memberships.replace(new Membership({ ...old, until }))
      yield* appendEvents(outbox, [membershipEvent("membershipEnded", ended)])
      return Option.some(ended)
    })

    const roster = traced("GroupRepository.roster")(
      function*(groupId: GroupId, day: CalendarDate, range: IdRange) {
        if (!groups.has(groupId)) return Option.none()
        return Option.some(
          page([...memberships.values()].filter((m) => m.groupId === groupId && live(m) && meet(m, day, day)), range)
        )
      }
    )

    const history = traced("GroupRepository.history")(function*(groupId: GroupId, range: IdRange) {
      if (!groups.has(groupId)) return Option.none()
      return Option.some(page([...memberships.values()].filter((m) => m.groupId === groupId && live(m)), range))
    })

    const ofAthlete = traced("GroupRepository.ofAthlete")(function*(athleteId: AthleteId, range: IdRange) {
      if (!athletes.has(athleteId)) return Option.none()
      return Option.some(page([...memberships.values()].filter((m) => m.athleteId === athleteId), range))
    })

    return GroupRepository.of({
      create,
      findById,
      list,
      update,
      remove,
      coachesAbove,
      ofCoach,
      ofMemberOn,
      start,
      findMembership,
      end,
      roster,
      history,
      ofAthlete
    })
  })
)
