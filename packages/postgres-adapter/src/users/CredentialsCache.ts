import type { UserCredentials, UserId } from "@club/core"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { DatabaseSharing } from "../database/DatabaseSharing.ts"
import { credentialsChannel, listenForCredentialChanges } from "./credentialsListener.ts"
import { CredentialsMemory } from "./credentialsMemory.ts"
import { transaction } from "../shared/transaction.ts"

/**
 * Each user's credentials as last read, shared by every request of this process, and kept
 * coherent with the database: see `credentialsTtlMillis` (credentialsMemory.ts) and `CredentialsCacheLive`.
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
