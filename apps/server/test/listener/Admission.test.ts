import { describe, expect, it } from "vitest"
import { Admission } from "../../src/listener/Admission.ts"

interface Member {
  readonly name: string
  rank: number | undefined
  evicted: boolean
  readonly evictionRank: () => number | undefined
  readonly evict: () => void
}

const member = (name: string, rank: number | undefined): Member => {
  const self: Member = {
    name,
    rank,
    evicted: false,
    evictionRank: () => self.rank,
    evict: () => (self.evicted = true)
  }
  return self
}

const setUp = (capacity: number) => {
  let now = 0
  const admission = new Admission<Member>({ capacity, unsettledRank: 2, settlingMs: 1_000, now: () => now })
  return { admission, advance: (ms: number) => (now += ms) }
}

describe("Admission: a bounded set that makes room by evicting idle or stalled members", () => {
  it("admits up to its capacity without evicting anyone", () => {
    const { admission } = setUp(2)
    const [a, b] = [member("a", 0), member("b", 0)]
    expect(admission.admit(a)).toBe(true)
    expect(admission.admit(b)).toBe(true)
    expect(admission.size).toBe(2)
    expect([a.evicted, b.evicted]).toEqual([false, false])
  })

  it("at capacity, evicts the settled member of the lowest rank, the oldest within a rank", () => {
    const { admission, advance } = setUp(3)
    const served = member("served idle", 3)
    const stalledOld = member("stalled, older", 1)
    const stalledNew = member("stalled, newer", 1)
    for (const m of [served, stalledOld, stalledNew]) admission.admit(m)
    advance(2_000)
    expect(admission.admit(member("newcomer", 0))).toBe(true)
    expect([served.evicted, stalledOld.evicted, stalledNew.evicted]).toEqual([false, true, false])
  })

  it("spares a member that has just arrived: it ranks after settled silent or stalled ones, before served ones", () => {
    const { admission, advance } = setUp(3)
    const served = member("served idle", 3)
    const settledSilent = member("silent for a while", 0)
    admission.admit(served)
    admission.admit(settledSilent)
    advance(2_000)
    const justArrived = member("just arrived, nothing sent yet", 0)
    admission.admit(justArrived)
    admission.admit(member("newcomer 1", 0))
    expect([settledSilent.evicted, justArrived.evicted, served.evicted]).toEqual([true, false, false])
    // With no settled one left, the oldest unsettled goes before the served one.
    admission.admit(member("newcomer 2", 0))
    expect([justArrived.evicted, served.evicted]).toEqual([true, false])
  })

  it("refuses a newcomer while every member is being served, and admits again once one leaves", () => {
    const { admission } = setUp(2)
    const [a, b] = [member("a", undefined), member("b", undefined)]
    admission.admit(a)
    admission.admit(b)
    expect(admission.admit(member("c", 0))).toBe(false)
    expect([a.evicted, b.evicted]).toEqual([false, false])
    admission.release(a)
    expect(admission.admit(member("d", 0))).toBe(true)
  })

  it("a member that becomes idle can be evicted again", () => {
    const { admission, advance } = setUp(1)
    const a = member("a", undefined)
    admission.admit(a)
    expect(admission.admit(member("b", 0))).toBe(false)
    a.rank = 3
    advance(5_000)
    expect(admission.admit(member("c", 0))).toBe(true)
    expect(a.evicted).toBe(true)
  })
})
