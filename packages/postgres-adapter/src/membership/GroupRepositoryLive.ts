import {
  type AthleteId,
  type CalendarDate,
  type CoachId,
  EntityNotFound,
  Group,
  type GroupCreate,
  type GroupId,
  GroupRepository,
  type GroupUpdate,
  type IdRange,
  InvalidValue,
  Membership,
  MembershipConflict,
  membershipEvent,
  type MembershipId,
  type MembershipStart,
  traced,
  UnknownReferences
} from "@club/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { dieOnInfrastructureError } from "../shared/dieOnInfrastructureError.ts"
import { int8Array } from "../shared/int8Array.ts"
import { onForeignKeyViolation } from "../shared/onForeignKeyViolation.ts"
import { onUniqueViolation } from "../shared/onUniqueViolation.ts"
import { requireKnownIds } from "../shared/requireKnownIds.ts"
import { transaction } from "../shared/transaction.ts"
import { writeEvents } from "../webhooks/outbox.ts"

const decodeGroups = Schema.decodeUnknownEffect(Schema.Array(Group))
const decodeMemberships = Schema.decodeUnknownEffect(Schema.Array(Membership))
const decodeCoachIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Number))

/** A group's columns as its record names them, its coaches ascending. */
const groupColumns = `g.id::float8 AS id, g.name, g.parent_id::float8 AS "parentId",
  COALESCE((SELECT json_agg(c.coach_id ORDER BY c.coach_id) FROM group_coaches c WHERE c.group_id = g.id), '[]'::json)
    AS "coachIds"`

/** A membership's columns as its record names them; the days as `YYYY-MM-DD`. */
const membershipColumns = `m.id::float8 AS id, m.group_id::float8 AS "groupId", m.athlete_id::float8 AS "athleteId",
  to_char(m.from_date, 'YYYY-MM-DD') AS "from", to_char(m.until_date, 'YYYY-MM-DD') AS until`

const nameTaken = (name: string) => () =>
  new MembershipConflict({ field: "name", reason: `another group is named '${name}'` })

export const GroupRepositoryLive = Layer.effect(
  GroupRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inTransaction = transaction(sql)
    const groupCols = sql.literal(groupColumns)
    const membershipCols = sql.literal(membershipColumns)

    /**
     * Changes of the tree (creates, moves, deletes) one at a time: two moves at once could each
     * pass the check that the other has not made yet, and together make a cycle.
     */
    const lockTree = sql`SELECT pg_advisory_xact_lock(hashtext('club.groups.tree'))`

    const readGroup = (id: GroupId) =>
      Effect.flatMap(
        sql`SELECT ${groupCols} FROM groups g WHERE g.id = ${id}`,
        (rows) => Effect.map(decodeGroups(rows), (groups) => Option.fromNullishOr(groups[0]))
      )

    const create = traced("GroupRepository.create")(function*(input: GroupCreate) {
      return yield* inTransaction(Effect.gen(function*() {
        yield* lockTree
        if (input.parentId === null) {
          const roots = yield* sql`SELECT 1 FROM groups WHERE parent_id IS NULL`
          if (roots.length > 0) {
            return yield* new InvalidValue({ field: "parentId", reason: "the club has its root group; name a parent" })
          }
        }
        yield* requireKnownIds(
          sql,
          {
            field: "parentId",
            entity: "Group",
            table: "groups",
            ids: input.parentId === null ? [] : [input.parentId]
          },
          { field: "coachIds", entity: "Coach", table: "coaches", ids: input.coachIds }
        )
        const [row] = yield* sql<{ id: number }>`INSERT INTO groups (name, parent_id)
          VALUES (${input.name}, ${input.parentId}) RETURNING id::float8 AS id`.pipe(
          onUniqueViolation({ groups_name_key: nameTaken(input.name) })
        )
        const id = row!.id as GroupId
        if (input.coachIds.length > 0) {
          yield* sql`INSERT INTO group_coaches (group_id, coach_id)
            SELECT ${id}, c FROM unnest(${int8Array(input.coachIds)}::bigint[]) AS c GROUP BY c`
        }
        return Option.getOrThrow(yield* readGroup(id))
      }))
    }, dieOnInfrastructureError)

    const findById = traced("GroupRepository.findById")(function*(id: GroupId) {
      return yield* readGroup(id)
    }, dieOnInfrastructureError)

    const list = traced("GroupRepository.list")(function*(range: IdRange) {
      return yield* decodeGroups(
        yield* sql`SELECT ${groupCols} FROM groups g WHERE g.id > ${range.after} ORDER BY g.id LIMIT ${range.limit}`
      )
    }, dieOnInfrastructureError)

    const update = traced("GroupRepository.update")(function*(id: GroupId, change: GroupUpdate) {
      return yield* inTransaction(Effect.gen(function*() {
        if (change.parentId !== undefined) yield* lockTree
        const [old] = yield* sql<{ name: string; parent_id: number | null }>`SELECT name, parent_id::float8 AS parent_id
          FROM groups WHERE id = ${id} FOR UPDATE`
        if (old === undefined) return Option.none<Group>()
        if (change.parentId !== undefined && change.parentId !== old.parent_id) {
          if (change.parentId === id) {
            return yield* new InvalidValue({ field: "parentId", reason: "a group cannot be its own parent" })
          }
          yield* requireKnownIds(sql, { field: "parentId", entity: "Group", table: "groups", ids: [change.parentId] })
          const [below] = yield* sql<{ below: boolean }>`WITH RECURSIVE up AS (
              SELECT id, parent_id FROM groups WHERE id = ${change.parentId}
              UNION ALL SELECT g.id, g.parent_id FROM groups g JOIN up ON g.id = up.parent_id)
            SELECT EXISTS (SELECT 1 FROM up WHERE id = ${id}) AS below`
          if (below!.below) {
            return yield* new MembershipConflict({
              field: "parentId",
              reason: `group ${change.parentId} lies below group ${id}; a group cannot move under itself`
            })
          }
        }
        if (change.coachIds !== undefined) {
          yield* requireKnownIds(sql, { field: "coachIds", entity: "Coach", table: "coaches", ids: change.coachIds })
        }
        const name = change.name ?? old.name
        yield* sql`UPDATE groups SET name = ${name}, parent_id = ${change.parentId ?? old.parent_id}
          WHERE id = ${id}`.pipe(onUniqueViolation({ groups_name_key: nameTaken(name) }))
        if (change.coachIds !== undefined) {
          yield* sql`DELETE FROM group_coaches WHERE group_id = ${id}`
          if (change.coachIds.length > 0) {
            yield* sql`INSERT INTO group_coaches (group_id, coach_id)
              SELECT ${id}, c FROM unnest(${int8Array(change.coachIds)}::bigint[]) AS c GROUP BY c`
          }
        }
        // The sessions and series of the group follow its name (docs/membership.md "Groups"); their
        // triggers count the change (revision, feed marker).
        if (name !== old.name) {
          yield* sql`UPDATE sessions SET groupe = ${name} WHERE groupe = ${old.name}`
          yield* sql`UPDATE series SET groupe = ${name} WHERE groupe = ${old.name}`
        }
        return yield* readGroup(id)
      }))
    }, dieOnInfrastructureError)

    const remove = traced("GroupRepository.remove")(function*(id: GroupId) {
      return yield* inTransaction(Effect.gen(function*() {
        yield* lockTree
        const [state] = yield* sql<{ known: boolean; subgroups: boolean; members: boolean }>`SELECT
          EXISTS (SELECT 1 FROM groups WHERE id = ${id}) AS known,
          EXISTS (SELECT 1 FROM groups WHERE parent_id = ${id}) AS subgroups,
          EXISTS (SELECT 1 FROM memberships WHERE group_id = ${id}) AS members`
        if (!state!.known) return false
        if (state!.subgroups) {
          return yield* new MembershipConflict({
            field: "id",
            reason: `group ${id} has subgroups; move or delete them first`
          })
        }
        const kept = () =>
          new MembershipConflict({
            field: "id",
            reason: `group ${id} has memberships, kept as its history; it cannot be deleted`
          })
        if (state!.members) return yield* kept()
        // A membership started meanwhile holds the group through its foreign key.
        yield* sql`DELETE FROM groups WHERE id = ${id}`.pipe(onForeignKeyViolation({ memberships_group_id_fkey: kept }))
        return true
      }))
    }, dieOnInfrastructureError)

    const coachesAbove = traced("GroupRepository.coachesAbove")(function*(id: GroupId) {
      const [row] = yield* sql<{ known: boolean; coaches: unknown }>`WITH RECURSIVE up AS (
          SELECT id, parent_id FROM groups WHERE id = ${id}
          UNION ALL SELECT g.id, g.parent_id FROM groups g JOIN up ON g.id = up.parent_id)
        SELECT EXISTS (SELECT 1 FROM up) AS known,
          COALESCE((SELECT json_agg(DISTINCT c.coach_id ORDER BY c.coach_id) FROM group_coaches c
            WHERE c.group_id IN (SELECT id FROM up)), '[]'::json) AS coaches`
      if (!row!.known) return Option.none()
      return Option.some((yield* decodeCoachIds(row!.coaches)) as ReadonlyArray<CoachId>)
    }, dieOnInfrastructureError)

    const ofCoach = traced("GroupRepository.ofCoach")(function*(coachId: CoachId, limit: number) {
      return yield* decodeGroups(
        yield* sql`SELECT ${groupCols} FROM groups g
          WHERE g.id IN (SELECT group_id FROM group_coaches WHERE coach_id = ${coachId}) ORDER BY g.id LIMIT ${limit}`
      )
    }, dieOnInfrastructureError)

    const ofMemberOn = traced("GroupRepository.ofMemberOn")(
      function*(athleteId: AthleteId, day: CalendarDate, limit: number) {
        return yield* decodeGroups(
          yield* sql`SELECT ${groupCols} FROM groups g
            WHERE g.id IN (SELECT group_id FROM memberships WHERE athlete_id = ${athleteId}
              AND from_date <= ${day}::date AND (until_date IS NULL OR until_date >= ${day}::date))
            ORDER BY g.id LIMIT ${limit}`
        )
      },
      dieOnInfrastructureError
    )

    /**
     * The exclusion constraint refuses a membership sharing a day with another of the athlete in
     * the group (`ON CONFLICT DO NOTHING` answers no row then), also against a writer committing
     * meanwhile; the foreign keys check the group and the athlete. Its event in the same transaction.
     */
    const start = traced("GroupRepository.start")(function*(groupId: GroupId, input: MembershipStart) {
      return yield* inTransaction(Effect.gen(function*() {
        const rows = yield* sql`INSERT INTO memberships AS m (group_id, athlete_id, from_date)
            VALUES (${groupId}, ${input.athleteId}, ${input.from}::date)
            ON CONFLICT DO NOTHING RETURNING ${membershipCols}`.pipe(onForeignKeyViolation({
          memberships_group_id_fkey: () => new EntityNotFound({ entity: "Group", id: groupId }),
          memberships_athlete_id_fkey: () =>
            new UnknownReferences({ field: "athleteId", entity: "Athlete", ids: [input.athleteId] })
        } as Record<string, () => EntityNotFound | UnknownReferences>))
        const [membership] = yield* decodeMemberships(rows)
        if (membership === undefined) {
          return yield* new MembershipConflict({
            field: "from",
            reason: `athlete ${input.athleteId} is a member of group ${groupId} on days from ${input.from} on already`
          })
        }
        yield* writeEvents(sql, [membershipEvent("membershipStarted", membership)])
        return membership
      }))
    }, dieOnInfrastructureError)

    const findMembership = traced("GroupRepository.findMembership")(function*(id: MembershipId) {
      const [membership] = yield* decodeMemberships(
        yield* sql`SELECT ${membershipCols} FROM memberships m WHERE m.id = ${id}`
      )
      return Option.fromNullishOr(membership)
    }, dieOnInfrastructureError)

    const end = traced("GroupRepository.end")(function*(id: MembershipId, until: CalendarDate) {
      return yield* inTransaction(Effect.gen(function*() {
        const [old] = yield* decodeMemberships(
          yield* sql`SELECT ${membershipCols} FROM memberships m WHERE m.id = ${id} FOR UPDATE`
        )
        if (old === undefined) return Option.none<Membership>()
        if (old.until !== null) {
          return yield* new MembershipConflict({
            field: "until",
            reason: `membership ${id} ended on ${old.until} already; a return is a new membership`
          })
        }
        if (until < old.from) {
          return yield* new InvalidValue({ field: "until", reason: `before the membership's first day (${old.from})` })
        }
        const [ended] = yield* decodeMemberships(
          yield* sql`UPDATE memberships AS m SET until_date = ${until}::date WHERE m.id = ${id} RETURNING ${membershipCols}`
        )
        yield* writeEvents(sql, [membershipEvent("membershipEnded", ended!)])
        return Option.some(ended!)
      }))
    }, dieOnInfrastructureError)

    /** One statement: whether the owner exists, and the page of its memberships `where` selects. */
    const pageWhere = (known: string, ownerId: number, where: Statement.Fragment, range: IdRange) =>
      Effect.gen(function*() {
        const [row] = yield* sql<{ known: boolean; items: unknown }>`SELECT
          EXISTS (SELECT 1 FROM ${sql(known)} WHERE id = ${ownerId}) AS known,
          COALESCE((SELECT json_agg(row_to_json(p) ORDER BY p.id) FROM (
            SELECT ${membershipCols} FROM memberships m WHERE ${where} AND m.id > ${range.after}
            ORDER BY m.id LIMIT ${range.limit}) p), '[]'::json) AS items`
        if (!row!.known) return Option.none<ReadonlyArray<Membership>>()
        return Option.some<ReadonlyArray<Membership>>(yield* decodeMemberships(row!.items))
      })

    // The group's memberships through the exclusion constraint's GiST index: a group range and a day range.
    const roster = traced("GroupRepository.roster")(
      function*(groupId: GroupId, day: CalendarDate, range: IdRange) {
        return yield* pageWhere(
          "groups",
          groupId,
          sql`int8range(m.group_id, m.group_id, '[]') && int8range(${groupId}, ${groupId}, '[]')
            AND daterange(m.from_date, m.until_date, '[]') @> ${day}::date`,
          range
        )
      },
      dieOnInfrastructureError
    )

    const history = traced("GroupRepository.history")(function*(groupId: GroupId, range: IdRange) {
      return yield* pageWhere(
        "groups",
        groupId,
        sql`int8range(m.group_id, m.group_id, '[]') && int8range(${groupId}, ${groupId}, '[]')`,
        range
      )
    }, dieOnInfrastructureError)

    const ofAthlete = traced("GroupRepository.ofAthlete")(function*(athleteId: AthleteId, range: IdRange) {
      return yield* pageWhere("athletes", athleteId, sql`m.athlete_id = ${athleteId}`, range)
    }, dieOnInfrastructureError)

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
