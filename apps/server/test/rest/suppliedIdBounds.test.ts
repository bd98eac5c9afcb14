import { describe, expect, it } from "vitest"
import { type Club, onEveryDatabase } from "./support/club.ts"
import { expectJson, expectProblem, expectStatus, expectText } from "@club/test-support/expectations"
import type { Caller, Reply } from "./support/http.ts"

/**
 * CONTRACT.md "Identifiers", issue 12: the service generates ids up to 2^53-1 and accepts a
 * supplied id only up to 2^31-1, so that no supplied id can leave generation without room. A
 * supplied id beyond that is bad input, and no sequence of requests makes a later valid one fail.
 */
const largestSuppliedId = 2_147_483_647
const refusedIds = [2_147_483_648, 9_007_199_254_740_991]
const largestGeneratedId = 9_007_199_254_740_991

interface Kind {
  readonly title: string
  readonly caller: (club: Club) => Caller
  readonly create: string
  readonly list: { readonly method: "GET" | "POST"; readonly path: string }
  readonly body: Record<string, unknown>
  /** The endpoint's answer to bad input, naming the field. */
  readonly expectRefused: (reply: Reply, field: string) => void
}

const problemNaming = (reply: Reply, field: string) => {
  expectProblem(reply, 400, { detail: new RegExp(`^${field}: `, "u") })
  expect((reply.body as { errors?: Array<{ field: string }> }).errors?.map((error) => error.field)).toContain(field)
}

/** A kind an admin creates, whose bad input is 400 problem+json. */
const byAdmin = (title: string, create: string, list: Kind["list"], body: Record<string, unknown>): Kind => ({
  title,
  caller: (club) => club.admin,
  create,
  list,
  body,
  expectRefused: problemNaming
})

const kinds: ReadonlyArray<Kind> = [
  byAdmin("POST /athletes/create", "/athletes/create", { method: "POST", path: "/athletes/all" }, {
    name: "Supplied athlete",
    categorie: "Senior",
    niveau: "A"
  }),
  byAdmin("POST /create (coach, the seed's root path)", "/create", { method: "GET", path: "/all" }, {
    name: "Supplied coach"
  }),
  byAdmin("POST /admins/create", "/admins/create", { method: "GET", path: "/admins/all" }, { name: "Supplied admin" }),
  {
    title: "POST /session/create (any coach)",
    caller: (club) => club.coach,
    create: "/session/create",
    list: { method: "GET", path: "/session/all" },
    body: { name: "Supplied session", creneau: "2026-11-21T18:30:00", duree: 60 },
    // The seed's failure of a session create: 400 plain text.
    expectRefused: (reply, field) => expectText(reply, 400, new RegExp(`^${field}: `, "u"))
  }
]

const listOf = (club: Club, kind: Kind) => kind.caller(club).send(kind.list.method, kind.list.path)

await onEveryDatabase("Supplied ids are bounded so that generated ids always have room", (club) => {
  for (const kind of kinds) {
    describe(kind.title, () => {
      it(`honours a supplied id of ${largestSuppliedId} (2^31-1), the largest accepted`, async () => {
        const reply = await kind.caller(club()).post(kind.create, { ...kind.body, id: largestSuppliedId })
        expectStatus(reply, 201)
        expect((reply.body as { id: number }).id).toBe(largestSuppliedId)
      })

      for (const id of refusedIds) {
        it(`refuses a supplied id of ${id} with the endpoint's bad-input answer naming id, writing nothing`, async () => {
          const before = await listOf(club(), kind)
          expectStatus(before, 200)
          kind.expectRefused(await kind.caller(club()).post(kind.create, { ...kind.body, id }), "id")
          expectJson(await listOf(club(), kind), 200, before.body)
        })
      }

      it("still creates records without an id afterwards, with distinct generated ids, and lists them", async () => {
        const created = [] as Array<number>
        for (let n = 0; n < 3; n++) {
          const reply = await kind.caller(club()).post(kind.create, kind.body)
          expectStatus(reply, 201)
          created.push((reply.body as { id: number }).id)
        }
        expect(new Set(created).size).toBe(3)
        for (const id of created) {
          expect(Number.isSafeInteger(id) && id > largestSuppliedId && id <= largestGeneratedId, `generated id ${id}`)
            .toBe(true)
        }
        const listed = await listOf(club(), kind)
        expectStatus(listed, 200)
        expect((listed.body as Array<{ id: number }>).map((record) => record.id)).toEqual(
          expect.arrayContaining([largestSuppliedId, ...created])
        )
      })
    })
  }

  it("the OpenAPI document states the bound on each create's id", async () => {
    const document = (await club().anonymous.get("/openapi.json")).body as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>
      components: { schemas: Record<string, unknown> }
    }
    const resolve = (schema: unknown): Record<string, unknown> => {
      const ref = (schema as { $ref?: string }).$ref
      return ref === undefined
        ? schema as Record<string, unknown>
        : resolve(document.components.schemas[ref.split("/").at(-1)!])
    }
    for (const kind of kinds) {
      const body = resolve(document.paths[kind.create]!["post"]!.requestBody.content["application/json"]!.schema)
      expect(JSON.stringify((body["properties"] as Record<string, unknown>)["id"]), kind.title).toContain(
        `"maximum":${largestSuppliedId}`
      )
    }
  })
})
