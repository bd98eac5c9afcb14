import type { UserCredentials, UserId } from "@club/core"
import { Effect, Option } from "effect"

/**
 * How long one read of a user's credentials answers for that user. Every authenticated request
 * reads them (role, links, revocation instant) by id: without a cache, that lookup is as much
 * database work as the small read the request asked for.
 *
 * Coherence does not rest on this: every write that can change credentials clears the cache of
 * the process that made it at once, and of every other process when its notification arrives
 * (see `CredentialsCache.invalidating` and `credentialsListener.ts`). What is left for the TTL is a listen
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
 * in place, since another instance's write could then go unheard. The cache (CredentialsCache.ts)
 * reads and clears it; the listener (credentialsListener.ts) turns it on and off with its LISTEN.
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

  lookup(
    id: UserId,
    load: Effect.Effect<Option.Option<UserCredentials>>
  ): Effect.Effect<Option.Option<UserCredentials>> {
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
