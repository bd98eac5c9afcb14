import type { UserCredentials, UserId } from "@club/core"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { DatabaseSharing } from "../database/DatabaseSharing.ts"
import { credentialsChannel, listenForCredentialChanges } from "./credentialsListener.ts"
import { transaction } from "../sql/transaction.ts"

/**
 * How long one read of a user's credentials answers for that user. Every authenticated request
 * reads them (role, links, revocation instant) by id; on the bench that lookup was half of the
 * database work of a small read.
 *
 * Coherence does not rest on this: every write that can change credentials clears the cache of
 * the process that made it at once, and of every other process when its notification arrives
 * (see `invalidating` and `credentialsListener.ts`). What is left for the TTL is a listen
 * connection that stops delivering without failing (a half-open TCP connection after a network
 * partition): the TTL bounds how long such an instance can go on answering from memory. So it
 * stays short. A longer one would buy little: 1 s already answers nearly every request of a user
 * who makes several a second, which is where the cache pays; and the bench counts the statements
 * of a request with a cold cache by waiting just past it.
 */
export const credentialsTtlMillis = 1_000

/** A bound on memory: past it, the cache starts over. */
const maxEntries = 10_000

interface Entry {
  readonly credentials: UserCredentials
  readonly expiresAt: number
}

/**
 * The entries, and whether they may be used. Disabled, a lookup reads the database and keeps
 * nothing: that is the state of a process on a shared database whose LISTEN is not known to be
 * in place, since another instance's write could then go unheard.
 */
export class CredentialsMemory {
  private readonly entries = new Map<number, Entry>()
  /** Moves on every invalidation, so that a read begun before a write does not store what it read. */
  private generation = 0
  private enabled: boolean

  constructor(enabled: boolean) {
    this.enabled = enabled
  }

  get isEnabled(): boolean {
    return this.enabled
  }

  lookup(id: UserId, load: Effect.Effect<Option.Option<UserCredentials>>): Effect.Effect<Option.Option<UserCredentials>> {
    return Effect.suspend(() => {
      if (!this.enabled) return load
      const now = Date.now()
      const entry = this.entries.get(id)
      if (entry !== undefined && entry.expiresAt > now) return Effect.succeedSome(entry.credentials)
      const generation = this.generation
      return Effect.tap(load, (found) =>
        Effect.sync(() => {
          if (Option.isNone(found) || generation !== this.generation) return
          if (this.entries.size >= maxEntries) this.entries.clear()
          this.entries.set(id, { credentials: found.value, expiresAt: now + credentialsTtlMillis })
        }))
    })
  }

  invalidate(): void {
    this.generation++
    this.entries.clear()
  }

  /** Starts answering from memory, empty; a read begun before is not stored. */
  enable(): void {
    this.invalidate()
    this.enabled = true
  }

  disable(): void {
    this.enabled = false
    this.invalidate()
  }
}

/**
 * Each user's credentials as last read, shared by every request of this process, and kept
 * coherent with the database: see `credentialsTtlMillis` and `CredentialsCacheLive`.
 */
export class CredentialsCache extends Context.Service<CredentialsCache, {
  /** The credentials of `id`: from memory when allowed and fresh, else from `load` (remembered when found). */
  readonly lookup: (
    id: UserId,
    load: Effect.Effect<Option.Option<UserCredentials>>
  ) => Effect.Effect<Option.Option<UserCredentials>>
  /**
   * Runs a write that can change some user's credentials (a user update or delete, or the delete
   * of a record a user is linked to) in one transaction that also notifies the other instances
   * (on a shared database), and clears this process's entries before and after it: after,
   * because a read between the two could otherwise store the value the write is replacing.
   */
  readonly invalidating: <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Whether a lookup may answer from memory now (false while LISTEN is not known to be in place). */
  readonly active: Effect.Effect<boolean>
}>()("@club/postgres-adapter/CredentialsCache") {}

/**
 * One cache per database layer. On an exclusive (embedded) database only this process writes, so
 * clearing the cache on its own writes keeps it true: it is on from the start and nothing listens
 * (its one pooled connection could not be given to a LISTEN anyway). On a shared database (a
 * PostgreSQL server) a fiber in this layer's scope holds a LISTEN on `club_credentials`, clears
 * the cache on every notification, and turns the cache on only while that LISTEN is known to be in
 * place; it is interrupted, and the LISTEN released, when the layer is.
 */
export const CredentialsCacheLive = Layer.effect(
  CredentialsCache,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { otherProcessesWrite } = yield* DatabaseSharing
    const memory = new CredentialsMemory(!otherProcessesWrite)
    if (otherProcessesWrite) yield* Effect.forkScoped(listenForCredentialChanges(yield* PgClient.PgClient, memory))

    // Through `sql`, not `PgClient.notify` (which takes a connection of its own from the pool), so
    // that it runs in the write's transaction and is delivered when, and only if, the write commits.
    const notifyOthers = otherProcessesWrite
      ? Effect.asVoid(sql`SELECT pg_notify(${credentialsChannel}, 'changed')`)
      : Effect.void
    const clear = Effect.sync(() => memory.invalidate())

    return CredentialsCache.of({
      lookup: (id, load) => memory.lookup(id, load),
      invalidating: (write) =>
        clear.pipe(
          Effect.andThen(transaction(sql)(Effect.tap(write, () => notifyOthers))),
          Effect.ensuring(clear)
        ),
      active: Effect.sync(() => memory.isEnabled)
    })
  })
)
