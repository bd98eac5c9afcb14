import { describe, expect, it } from "vitest"
import { expectJson, expectProblem, expectStatus } from "../../expectations.ts"
import type { Caller, Club } from "../Club.ts"
import { createActivity, createAthlete, createCoach, createSession, type SessionDto, unique } from "../records.ts"

interface SessionPage {
  readonly items: ReadonlyArray<SessionDto>
  readonly nextCursor: string | null
}

/** `GET /planning/sessions` (issue 17): paged by cursor, filtered; on any harness. */
export const planningEndpoints = (club: () => Club) => {
  const pageOf = async (caller: Caller, query: Record<string, string | number>) => {
    const reply = await caller.get(
      `/planning/sessions?${new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])
      )}`
    )
    expectStatus(reply, 200)
    return reply.body as SessionPage
  }
  /** Every page of `query`, followed `limit` at a time; `between` runs after each page. */
  const allPages = async (query: Record<string, string | number>, between: () => Promise<void> = async () => {}) => {
    const pages: Array<SessionPage> = []
    let cursor: string | null = null
    do {
      const page: SessionPage = await pageOf(club().coach, cursor === null ? query : { ...query, cursor })
      pages.push(page)
      cursor = page.nextCursor
      await between()
    } while (cursor !== null && pages.length < 100)
    return pages
  }
  const ids = (sessions: ReadonlyArray<SessionDto>) => sessions.map((session) => session.id)

  describe("GET /planning/sessions (any role)", () => {
    it("answers pages of `limit` sessions in (creneau, id) order, an undated session first, the last page's nextCursor null", async () => {
      const groupe = unique("Paged")
      const at = (creneau: string | null) => createSession(club(), { groupe, creneau })
      const late = await at("2026-05-02T09:00:00")
      const early = await at("2026-05-01T09:00:00")
      const earlyToo = await at("2026-05-01T09:00:00")
      const undated = await at(null)
      const pages = await allPages({ groupe, limit: 3 })
      expect(pages.map((page) => page.items.length)).toEqual([3, 1])
      expect(pages.flatMap((page) => page.items)).toEqual([undated, early, earlyToo, late])
      expect(pages[1]!.nextCursor).toBeNull()
      const [admin, athlete] = await Promise.all([
        club().admin.get(`/planning/sessions?groupe=${groupe}`),
        club().athlete.get(`/planning/sessions?groupe=${groupe}`)
      ])
      expectJson(admin, 200, { items: [undated, early, earlyToo, late], nextCursor: null })
      expectJson(athlete, 200, admin.body)
      expectStatus(await club().anonymous.get(`/planning/sessions?groupe=${groupe}`), 401)
    })

    it("pages stay stable under inserts between pages: no session repeated, none listed before skipped", async () => {
      const groupe = unique("Concurrent")
      const before = []
      for (let day = 10; day < 16; day++) {
        before.push(await createSession(club(), { groupe, creneau: `2026-06-${day}T09:00:00` }))
      }
      let inserted = 0
      const insertedIds: Array<number> = []
      const pages = await allPages({ groupe, limit: 2 }, async () => {
        // One before everything listed so far, one among the sessions still to come.
        inserted++
        insertedIds.push((await createSession(club(), { groupe, creneau: `2026-06-01T0${inserted}:00:00` })).id)
        insertedIds.push((await createSession(club(), { groupe, creneau: `2026-06-14T0${inserted}:30:00` })).id)
      })
      const listed = ids(pages.flatMap((page) => page.items))
      expect(new Set(listed).size).toBe(listed.length)
      for (const session of before) expect(listed).toContain(session.id)
      // What was listed is in order, and every session inserted after the position reached is there.
      const all = (await pageOf(club().coach, { groupe, limit: 500 })).items
      expect(listed).toEqual(ids(all).filter((id) => listed.includes(id)))
      expect(listed.filter((id) => insertedIds.includes(id)).length).toBeGreaterThan(0)
    })

    it("filters by coach, athlete, group and range (from inclusive, to exclusive)", async () => {
      const groupe = unique("Filtered")
      const coach = await createCoach(club())
      const athlete = await createAthlete(club())
      const nine = await createSession(club(), { groupe, creneau: "2026-07-01T09:00:00", coachId: coach.id })
      const ten = await createSession(club(), {
        groupe,
        creneau: "2026-07-01T10:00:00",
        coachId: coach.id,
        athleteIds: [athlete.id]
      })
      const other = await createSession(club(), {
        groupe: unique("Other"),
        creneau: "2026-07-01T09:30:00",
        athleteIds: [athlete.id]
      })
      expect(ids((await pageOf(club().coach, { coachId: coach.id })).items)).toEqual([nine.id, ten.id])
      expect(ids((await pageOf(club().coach, { athleteId: athlete.id })).items)).toEqual([other.id, ten.id])
      expect(ids((await pageOf(club().coach, { athleteId: athlete.id, groupe })).items)).toEqual([ten.id])
      expect(ids((await pageOf(club().coach, { coachId: coach.id, from: "2026-07-01T10:00:00" })).items)).toEqual([
        ten.id
      ])
      expect(ids((await pageOf(club().coach, { coachId: coach.id, to: "2026-07-01T10:00:00" })).items)).toEqual([
        nine.id
      ])
      expect(
        ids(
          (await pageOf(club().coach, {
            athleteId: athlete.id,
            from: "2026-07-01T09:00:00",
            to: "2026-07-01T09:59:59"
          })).items
        )
      )
        .toEqual([other.id])
    })

    it("answers 50 sessions a page without `limit`, and up to 500 with it", async () => {
      const groupe = unique("Default")
      for (let i = 0; i < 51; i++) await createSession(club(), { groupe, creneau: "2026-08-01T09:00:00" })
      const first = await pageOf(club().coach, { groupe })
      expect(first.items).toHaveLength(50)
      expect(first.nextCursor).not.toBeNull()
      const whole = await pageOf(club().coach, { groupe, limit: 500 })
      expect(whole.items).toHaveLength(51)
      expect(whole.nextCursor).toBeNull()
    })

    it("answers 400 naming `limit` out of 1 to 500, `cursor` not given by the API, or a filter that does not parse", async () => {
      for (const limit of ["0", "501", "-1", "ten", "1.5", ""]) {
        expectProblem(await club().coach.get(`/planning/sessions?limit=${limit}`), 400, { detail: /limit/u })
      }
      for (const cursor of ["nonsense!", "e30", "WyJ4Iiw3XQ"]) {
        expectProblem(await club().coach.get(`/planning/sessions?cursor=${cursor}`), 400, { detail: /cursor/u })
      }
      expectProblem(await club().coach.get("/planning/sessions?from=tomorrow"), 400, { detail: /from/u })
      expectProblem(await club().coach.get(`/planning/sessions?cursor=${"A".repeat(600)}`), 400, { detail: /cursor/u })
      expectProblem(await club().coach.get("/planning/sessions?coachId=07"), 400, { detail: /coachId/u })
    })
  })

  describe("Cursors are sealed: one the API did not give, or one edited, is refused (issue 36)", () => {
    /** `cursor` with the character at `at` replaced by another base64url character. */
    const edited = (cursor: string, at: number) =>
      `${cursor.slice(0, at)}${cursor[at] === "A" ? "B" : "A"}${cursor.slice(at + 1)}`
    /** What a client could forge from a cursor's old shape: base64url of a position's JSON. */
    const forged = (position: unknown) => Buffer.from(JSON.stringify(position)).toString("base64url")

    it("GET /planning/sessions: the given cursor pages on; any edit of it, or a forged position, answers 400 naming cursor", async () => {
      const groupe = unique("Sealed")
      for (let i = 0; i < 3; i++) await createSession(club(), { groupe, creneau: `2026-10-0${i + 1}T10:00:00` })
      const first = await pageOf(club().coach, { groupe, limit: 1 })
      const cursor = first.nextCursor!
      expect((await pageOf(club().coach, { groupe, limit: 1, cursor })).items).toHaveLength(1)
      for (const at of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
        const reply = await club().coach.get(`/planning/sessions?groupe=${groupe}&limit=1&cursor=${edited(cursor, at)}`)
        expectProblem(reply, 400, { detail: /cursor/u })
      }
      for (const position of [[null, 1], ["2026-10-01T10:00:00", 1], [null, 9_007_199_254_740_991]]) {
        expectProblem(await club().coach.get(`/planning/sessions?cursor=${forged(position)}`), 400, {
          detail: /cursor/u
        })
      }
    })

    it("the seed's lists and GET /planning/conflicts refuse an edited or forged cursor alike", async () => {
      for (let i = 0; i < 3; i++) await createSession(club())
      const link = (await club().coach.get("/session/all?limit=1")).headers.get("link")!
      const cursor = new URL(/^<([^>]+)>/u.exec(link)![1]!, "http://club.test").searchParams.get("cursor")!
      expectStatus(await club().coach.get(`/session/all?limit=1&cursor=${cursor}`), 200)
      expectProblem(await club().coach.get(`/session/all?limit=1&cursor=${edited(cursor, 3)}`), 400, {
        detail: /cursor/u
      })
      expectProblem(await club().coach.get(`/session/all?cursor=${forged({ after: 0 })}`), 400, { detail: /cursor/u })
      expectProblem(await club().coach.get(`/planning/conflicts?cursor=${forged([1, 2, 0, 1])}`), 400, {
        detail: /cursor/u
      })
    })
  })

  describe("The seed's lists, paged when asked (limit, cursor, Link: rel=\"next\")", () => {
    /** The `rel="next"` target of a `Link` header, or undefined. */
    const nextOf = (link: string | null) => (link === null ? undefined : /^<([^>]+)>; rel="next"$/u.exec(link)?.[1])

    /** Follows `Link: rel="next"` from `first`; answers every page's body. */
    const followPages = async (method: "get" | "post", first: string, caller: Caller = club().admin) => {
      const pages: Array<ReadonlyArray<unknown>> = []
      let path: string | undefined = first
      while (path !== undefined && pages.length < 100) {
        const reply = method === "get" ? await caller.get(path) : await caller.post(path)
        expectStatus(reply, 200)
        expect(reply.contentType).toBe("application/json")
        pages.push(reply.body as ReadonlyArray<unknown>)
        path = nextOf(reply.headers.get("link"))
      }
      return pages
    }

    it("answers the whole list without paging parameters, and the same list in pages with them, the last without Link", async () => {
      const athlete = await createAthlete(club())
      for (let i = 0; i < 3; i++) {
        await createSession(club(), { athleteIds: [athlete.id], creneau: "2026-09-01T09:00:00" })
      }
      const session = await createSession(club())
      for (let i = 0; i < 3; i++) await createActivity(club(), session.id)
      await createCoach(club())
      const lists: ReadonlyArray<readonly ["get" | "post", string, Caller]> = [
        ["get", "/session/all", club().coach],
        ["get", "/users/all", club().admin],
        ["post", "/athletes/all", club().admin],
        ["get", "/activite/all", club().coach],
        ["get", "/coaches/all", club().admin],
        ["get", "/all", club().admin],
        ["get", "/athletes/athletes/session", club().athlete],
        ["get", `/athletes/athlete/${athlete.id}/session`, club().athlete],
        ["get", `/athletes/athletes/${athlete.id}/session/after/2000-01-01`, club().athlete]
      ]
      for (const [method, path, caller] of lists) {
        const whole = method === "get" ? await caller.get(path) : await caller.post(path)
        expectStatus(whole, 200)
        expect(whole.headers.get("link")).toBeNull()
        const items = whole.body as ReadonlyArray<unknown>
        expect(items.length, path).toBeGreaterThan(2)
        const pages = await followPages(method, `${path}?limit=2`, caller)
        expect(pages.flat(), path).toEqual(items)
        expect(pages.slice(0, -1).every((page) => page.length === 2), path).toBe(true)
        expect(pages.length, path).toBe(Math.ceil(items.length / 2))
      }
    })

    it("pages by id: a record created between pages repeats nothing and skips nothing listed before", async () => {
      for (let i = 0; i < 3; i++) await createSession(club())
      const first = await club().coach.get("/session/all?limit=2")
      const before = (await club().coach.get("/session/all")).body as ReadonlyArray<SessionDto>
      const created = await createSession(club())
      const rest = await followPages("get", nextOf(first.headers.get("link"))!, club().coach)
      const listed = ids([...(first.body as ReadonlyArray<SessionDto>), ...(rest.flat() as ReadonlyArray<SessionDto>)])
      expect(listed).toEqual([...ids(before), created.id])
    })

    it("answers 400 naming `limit` or `cursor` on a seed list that cannot be paged as asked", async () => {
      expectProblem(await club().coach.get("/session/all?limit=0"), 400, { detail: /limit/u })
      expectProblem(await club().admin.get("/users/all?limit=501"), 400, { detail: /limit/u })
      expectProblem(await club().admin.get("/users/all?cursor=nope!"), 400, { detail: /cursor/u })
    })
  })
}
