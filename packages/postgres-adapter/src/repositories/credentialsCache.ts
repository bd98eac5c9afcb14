import type { UserCredentials, UserId } from "@club/core"
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

/**
 * How long one read of a user's credentials answers for that user. Every authenticated request
 * reads them (role, links, revocation instant) by id; on the bench that lookup was half of the
 * database work of a small read. Writes through this process are seen at once (see
 * `invalidating`); a change made by another instance is seen within this time.
 */
export const credentialsTtlMillis = 1_000

/** A bound on memory: past it, the cache starts over. */
const maxEntries = 10_000

interface Entry {
  readonly credentials: UserCredentials
  readonly expiresAt: number
}

class CredentialsCache {
  private readonly entries = new Map<number, Entry>()
  /** Moves on every write, so that a read begun before a write does not store what it read. */
  private generation = 0

  lookup(id: UserId, load: Effect.Effect<Option.Option<UserCredentials>>) {
    return Effect.suspend(() => {
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

  invalidate() {
    this.generation++
    this.entries.clear()
  }
}

/** One cache per database client: two databases in one process (tests) never share entries. */
const caches = new WeakMap<SqlClient, CredentialsCache>()

export const credentialsCache = (sql: SqlClient): CredentialsCache => {
  let cache = caches.get(sql)
  if (cache === undefined) caches.set(sql, cache = new CredentialsCache())
  return cache
}

/**
 * Runs a write that can change some user's credentials (a user update or delete, or the delete of
 * a record a user is linked to), dropping every cached entry before and after it: after, because a
 * read between the two could otherwise store the value the write is replacing.
 */
export const invalidating = (sql: SqlClient) => <A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const cache = credentialsCache(sql)
  return Effect.suspend(() => {
    cache.invalidate()
    return write
  }).pipe(Effect.ensuring(Effect.sync(() => cache.invalidate())))
}
