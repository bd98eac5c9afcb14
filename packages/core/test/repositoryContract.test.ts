import {
  type AthleteId,
  type CalendarDate,
  type CoachId,
  Group,
  type GroupId,
  Membership,
  type UserId
} from "@club/core"
import { InMemoryRepositories, InMemoryStore } from "@club/core/testing"
import { Effect, Layer } from "effect"
import {
  type Implementation,
  MembershipFixture,
  runContract,
  StoredIdempotencyKeys,
  StoredLoginFailures
} from "./repositoryContract/Contract.ts"
import { repositoryContract } from "./repositoryContract/suites.ts"
import { zonePropertiesContract } from "./repositoryContract/zoneProperties.ts"

/** The store's login failures, as the contract's tests look at them. */
const StoredFailuresInMemory = Layer.effect(
  StoredLoginFailures,
  Effect.gen(function*() {
    const { loginFailures } = yield* InMemoryStore
    return StoredLoginFailures.of({
      of: (keys) =>
        Effect.sync(() =>
          [...new Set(keys)].sort().flatMap((key) => {
            const entry = loginFailures.get(key)
            return entry === undefined ? [] : [[key, entry.failures, entry.lastFailureEpochMs] as const]
          })
        )
    })
  })
)

/** The store's idempotency keys, as the contract's tests look at them. */
const StoredKeysInMemory = Layer.effect(
  StoredIdempotencyKeys,
  Effect.gen(function*() {
    const { idempotencyKeys } = yield* InMemoryStore
    return StoredIdempotencyKeys.of({
      of: (caller, keys) =>
        Effect.sync(() => [...new Set(keys)].sort().filter((key) => idempotencyKeys.get(caller, key) !== undefined))
    })
  })
)

/** Groups and memberships written into the store's tables. */
const MembershipsInMemory = Layer.effect(
  MembershipFixture,
  Effect.gen(function*() {
    const { groups, guardians, memberships } = yield* InMemoryStore
    return MembershipFixture.of({
      root: () =>
        Effect.sync(() =>
          (groups.all().find((group) => group.parentId === null) ??
            groups.insert(new Group({ id: groups.newId(null) as GroupId, name: "Club", parentId: null, coachIds: [] })))
            .id
        ),
      group: (name, parentId, coachIds) =>
        Effect.sync(() =>
          groups.insert(
            new Group({
              id: groups.newId(null) as GroupId,
              name,
              parentId: parentId as GroupId | null,
              coachIds: coachIds as ReadonlyArray<CoachId>
            })
          ).id
        ),
      member: (groupId, athleteId, from, until) =>
        Effect.sync(() =>
          memberships.insert(
            new Membership({
              id: memberships.newId(null) as Membership["id"],
              groupId: groupId as GroupId,
              athleteId: athleteId as AthleteId,
              from: from as CalendarDate,
              until: until as CalendarDate | null
            })
          ).id
        ),
      end: (membershipId, until) =>
        Effect.sync(() => {
          const found = memberships.get(membershipId)!
          memberships.insert(new Membership({ ...found, until: until as CalendarDate }))
        }),
      guard: (userId, athleteId) =>
        Effect.sync(() => {
          const users = guardians.get(athleteId as AthleteId) ?? new Set()
          users.add(userId as UserId)
          guardians.set(athleteId as AthleteId, users)
        })
    })
  })
)

const inMemory: Implementation = {
  name: "in-memory",
  available: true,
  layer: Layer.mergeAll(StoredFailuresInMemory, StoredKeysInMemory, MembershipsInMemory).pipe(
    Layer.provideMerge(InMemoryRepositories)
  )
}

// The same suites run on PostgreSQL and embedded PGlite in packages/postgres-adapter/test.
for (const suite of repositoryContract) runContract(suite, [inMemory])

// The time-zone properties, with the budget of an in-process store (the databases run fewer cases).
runContract(zonePropertiesContract(200), [inMemory])
