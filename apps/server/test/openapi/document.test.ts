import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ServerProcess } from "@club/test-support"
import {
  type Document,
  fetchDocument,
  operationsOf,
  resolve,
  type Schema,
  startDocumentedServer
} from "./support/servedDocument.ts"
import { redoclyCli, repositoryRoot, runNode, temporaryFolder } from "./support/tools.ts"

/**
 * The OpenAPI document the server serves, as tools nobody here wrote read it: Redocly's lint with
 * its recommended rules (redocly.yaml), and what the document promises to a client generator.
 */
let server: ServerProcess
let served: { readonly text: string; readonly document: Document }
const folder = temporaryFolder("club-openapi-lint-")

beforeAll(async () => {
  server = await startDocumentedServer()
  served = await fetchDocument(server)
})
afterAll(async () => {
  await server?.stop()
  folder.remove()
})

const schemaNodes = (value: unknown, into: Array<Schema> = []): Array<Schema> => {
  if (Array.isArray(value)) value.forEach((item) => schemaNodes(item, into))
  else if (typeof value === "object" && value !== null) {
    into.push(value as Schema)
    Object.values(value).forEach((child) => schemaNodes(child, into))
  }
  return into
}

const operation = (method: string, path: string) => served.document.paths[path]![method]!
const component = (name: string) => served.document.components.schemas[name]!

describe("the served /openapi.json", () => {
  it("passes Redocly's lint (recommended rules, redocly.yaml) with no error and no warning", async () => {
    const file = join(folder.path, "openapi.json")
    writeFileSync(file, served.text)
    const run = await runNode([
      redoclyCli(),
      "lint",
      file,
      "--config",
      join(repositoryRoot, "redocly.yaml"),
      "--format=json"
    ])
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number }
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>
    }
    const problems = report.problems.map((problem) =>
      `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`
    )
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    expect(run.code).toBe(0)
  })

  it("names a schema for every DTO, input and problem, after what it is (no Encoded suffix)", () => {
    const names = Object.keys(served.document.components.schemas)
    expect(names).toEqual(expect.arrayContaining([
      "Session",
      "SessionSummary",
      "SessionCreate",
      "SessionUpdate",
      "Athlete",
      "AthleteCreate",
      "AthleteUpdate",
      "Coach",
      "CoachCreate",
      "CoachUpdate",
      "Admin",
      "AdminCreate",
      "AdminUpdate",
      "Activity",
      "ActivitySummary",
      "ActivityInput",
      "User",
      "UserCreate",
      "UserUpdate",
      "Role",
      "Login",
      "LoginRequest",
      "Health",
      "InvalidRequest",
      "Unauthorized",
      "Forbidden",
      "NotFound",
      "Conflict",
      "TooManyRequests",
      "Unavailable"
    ]))
    expect(names.filter((name) => name.endsWith("Encoded"))).toEqual([])
    for (
      const [method, path, body] of [["post", "/session/create", "SessionCreate"], [
        "put",
        "/users/update/{id}",
        "UserUpdate"
      ]] as const
    ) {
      expect(operation(method, path).requestBody!.content["application/json"]!.schema).toEqual({
        $ref: `#/components/schemas/${body}`
      })
    }
    expect(operation("get", "/session/{id}").responses["200"]!.content!["application/json"]!.schema).toEqual({
      $ref: "#/components/schemas/Session"
    })
  })

  it("gives every operation a summary, a description that says who may call it, and a described tag", () => {
    const tags = new Map(served.document.tags.map((tag) => [tag.name, tag.description]))
    for (const { method, path, operation } of operationsOf(served.document)) {
      const where = `${method} ${path}`
      expect(operation.summary, where).toBeTruthy()
      expect(operation.description, where).toMatch(/\*\*Who may call it:\*\* /u)
      expect(operation.tags.map((tag) => tags.get(tag)), where).not.toContain(undefined)
      const isPublic = path.startsWith("/health/") || path === "/auth/login" || path.startsWith("/planning/feeds/") ||
        path === "/notices/unsubscribe"
      expect(operation.security, where).toEqual(isPublic ? [] : [{ bearer: [] }])
    }
    expect(operation("post", "/session/create").description).toContain("**Who may call it:** COACH.")
    expect(operation("put", "/athletes/{id}").description).toContain(
      "ADMIN, or the ATHLETE user linked to the athlete `{id}`"
    )
    expect(operation("get", "/athletes/athlete/{id}/session").description).toContain("any authenticated user")
  })

  it("states the API's servers, license and bearer scheme", () => {
    expect(served.document.servers).toEqual([expect.objectContaining({ url: "/" })])
    expect(served.document.info["license"]).toEqual({ name: "MIT", identifier: "MIT" })
    expect(served.document.components.securitySchemes["bearer"]).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT"
    })
  })

  it("states the bounds and formats the server checks", () => {
    const userCreate = component("UserCreate")["properties"]
    expect(userCreate.password).toEqual({ type: "string", minLength: 8, maxLength: 1000 })
    expect(userCreate.role).toMatchObject({ type: "string", enum: ["ADMIN", "COACH", "ATHLETE"] })
    expect(component("User")["properties"].role).toEqual({ $ref: "#/components/schemas/Role" })
    expect(component("Role")).toMatchObject({ type: "string", enum: ["ADMIN", "COACH", "ATHLETE"] })
    const creneau = component("Session")["properties"].creneau.anyOf[0]
    expect(creneau.pattern).toBeDefined()
    expect(new RegExp(creneau.pattern, "u").test("2026-11-21T18:30:00")).toBe(true)
    for (
      const refused of [
        "2026-11-21",
        "2026-11-21T18:30:00Z",
        "2026-11-21T18:30",
        "2026-13-01T00:00:00",
        "0050-01-01T00:00:00"
      ]
    ) {
      expect(new RegExp(creneau.pattern, "u").test(refused), refused).toBe(false)
    }
    const date = operation("get", "/athletes/athletes/{id}/session/after/{date}").parameters.find((parameter) =>
      parameter.name === "date"
    )!
    expect(date.schema).toMatchObject({ type: "string", format: "date" })
    expect(component("SessionCreate")["properties"].id.anyOf).toEqual([{
      type: "integer",
      minimum: 1,
      maximum: 2_147_483_647
    }, { type: "null" }])
    expect(component("SessionCreate")["properties"].duree.anyOf[0]).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 9_007_199_254_740_991
    })
    expect(component("SessionCreate")["properties"].athleteIds.anyOf[0]).toMatchObject({
      type: "array",
      maxItems: 10_000
    })
    expect(component("SessionCreate")["properties"].name.anyOf[0]).toEqual({ type: "string", maxLength: 200 })
    expect(component("ActivityInput")["properties"].id.anyOf).toEqual([{ type: "number" }, { type: "null" }])
    expect(component("Athlete")["properties"].groupes).toEqual({
      type: "array",
      items: { type: "string" },
      maxItems: 0
    })
    const location = operation("post", "/activite/create").responses["201"]!.headers!["location"]
    expect(location).toMatchObject({ required: true, schema: { type: "string", format: "uri-reference" } })
  })

  it("says that request bodies take members they do not know, and answers hold only theirs", () => {
    for (const { method, path, operation } of operationsOf(served.document)) {
      const body = operation.requestBody?.content["application/json"]?.schema
      if (body === undefined) continue
      expect(resolve(served.document, body)["additionalProperties"], `${method} ${path}`).toBeUndefined()
    }
    expect(component("Session")["additionalProperties"]).toBe(false)
  })

  it("repeats no member of an anyOf, and writes no `items: false` and no number as a string", () => {
    for (const node of schemaNodes(served.document)) {
      if (Array.isArray(node["anyOf"])) {
        const members = node["anyOf"].map((member: unknown) => JSON.stringify(member))
        expect(new Set(members).size, members.join(" | ")).toBe(members.length)
      }
      expect(node["items"]).not.toBe(false)
      expect(node["enum"] ?? []).not.toContain("NaN")
    }
  })

  it("declares Idempotency-Key on every write that takes it, and not on login, the listing POST, the feed token's creation or one-click unsubscribe", () => {
    for (const { method, path, operation } of operationsOf(served.document)) {
      const takesKey = operation.parameters.some((parameter) =>
        parameter.name === "Idempotency-Key" && parameter.in === "header"
      )
      // A new feed token's answer is a secret, never kept for a replay: its creation refuses keys.
      // One-click unsubscribe has no login to key a replay to, and is idempotent as it is (decision 0293).
      const isWrite = method !== "GET" && path !== "/auth/login" && path !== "/athletes/all" &&
        !(method === "POST" && path === "/planning/feed-token") && path !== "/notices/unsubscribe"
      expect(takesKey, `${method} ${path}`).toBe(isWrite)
    }
  })
})
