/** A member of a bounded set: whether, and how readily, it may give its place to a newcomer. */
export interface Admitted {
  /**
   * Undefined while work is being done for the member; otherwise its rank among those that may be
   * evicted: the lowest rank goes first (a client that never sent a byte before one that stalls
   * half-way, before an idle one that was served), and within a rank the oldest.
   */
  readonly evictionRank: () => number | undefined
  readonly evict: () => void
}

export interface AdmissionOptions {
  readonly capacity: number
  /**
   * The rank of a member admitted less than `settlingMs` ago, whatever its own rank is lower: a
   * client that has just connected has not had the time to send its request, and must not look
   * like one that never sends a byte.
   */
  readonly unsettledRank: number
  readonly settlingMs?: number
  readonly now?: () => number
}

/**
 * A set of at most `capacity` members (connections, streams). A newcomer is admitted while there is
 * room. At capacity it takes the place of the member that can be evicted with the lowest rank,
 * oldest first (see `evictionRank` and `unsettledRank`); while every member is being served, the
 * newcomer is refused. So a flood of silent or stalled clients keeps moving through, mostly
 * replacing itself, and cannot crowd out a client that sends its request, nor the idle clients
 * that were served. Members leave with `release`.
 */
export class Admission<A extends Admitted> {
  // A Map iterates in insertion order, oldest first; the value is when the member was admitted.
  private readonly members = new Map<A, number>()
  private readonly settlingMs: number
  private readonly now: () => number

  constructor(private readonly options: AdmissionOptions) {
    this.settlingMs = options.settlingMs ?? 1_000
    this.now = options.now ?? Date.now
  }

  get size(): number {
    return this.members.size
  }

  /** Admits the member, evicting another at capacity; false when none could be evicted. */
  admit(member: A): boolean {
    const now = this.now()
    if (this.members.size >= this.options.capacity) {
      const victim = this.victim(now)
      if (victim === undefined) return false
      this.members.delete(victim)
      victim.evict()
    }
    this.members.set(member, now)
    return true
  }

  release(member: A): void {
    this.members.delete(member)
  }

  private victim(now: number): A | undefined {
    let victim: A | undefined
    let lowest = Number.POSITIVE_INFINITY
    for (const [candidate, admittedAt] of this.members) {
      const own = candidate.evictionRank()
      if (own === undefined) continue
      const rank = now - admittedAt < this.settlingMs ? Math.max(own, this.options.unsettledRank) : own
      if (rank < lowest) {
        victim = candidate
        lowest = rank
        if (rank === 0) break
      }
    }
    return victim
  }
}
