import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { ClubApi } from "../src/rest/Api.ts"

/**
 * Issue 37's standing rule (docs/RELIABILITY.md, "Bounds"): every endpoint that answers a list
 * says how long it can be. A list either takes `limit` with a documented maximum, or is named
 * here with the fixed bound that holds it (and the same row in RELIABILITY.md).
 */
const fixedBounds: Readonly<Record<string, string>> = {
  "PUT /attendance/athletes/{id}/replies/{sessionId}":
    "one reply per session written: this one, and with scope=following the later occurrences of its series (SCHEDULE_MAX_OCCURRENCES at most)",
  "GET /attendance/webhooks/{id}/deliveries": "the latest 200 attempts",
  "GET /people/{id}/export":
    "one person's history, unbounded but streamed: read and written a page of 500 rows at a time (decision 0271)",
  "GET /people/athletes/{id}/export":
    "one person's history, unbounded but streamed: read and written a page of 500 rows at a time (decision 0271)",
  // Open (docs/RELIABILITY.md): registrations are capped by a setting under issue 37's item 6.
  "GET /attendance/webhooks": "every registered webhook: as many as registrations allow"
}

type Json = Record<string, unknown>

const document = OpenApi.fromApi(ClubApi) as unknown as {
  paths: Record<string, Record<string, Json>>
  components: Json
}

const resolve = (schema: Json | undefined): Json | undefined => {
  if (schema === undefined) return undefined
  const ref = schema["$ref"]
  if (typeof ref !== "string") return schema
  const name = ref.split("/").at(-1)!
  return resolve((document.components["schemas"] as Record<string, Json>)[name])
}

/** Whether an answer's schema is a list: an array, or an object whose `items` is one (a page). */
const isList = (schema: Json | undefined): boolean => {
  const resolved = resolve(schema)
  if (resolved === undefined) return false
  if (resolved["type"] === "array") return true
  const items = resolve((resolved["properties"] as Record<string, Json> | undefined)?.["items"])
  return items?.["type"] === "array"
}

const listOperations = () => {
  const found: Array<{ name: string; limitMaximum: unknown }> = []
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = (operation["responses"] ?? {}) as Record<string, Json>
      const success = Object.entries(responses).filter(([status]) => status.startsWith("2"))
      const lists = success.some(([, response]) =>
        isList(((response["content"] as Record<string, Json> | undefined)?.["application/json"])?.["schema"] as Json)
      )
      if (!lists) continue
      const parameters = (operation["parameters"] ?? []) as ReadonlyArray<Json>
      const limit = parameters.find((p) => p["name"] === "limit" && p["in"] === "query")
      found.push({
        name: `${method.toUpperCase()} ${path}`,
        limitMaximum: (limit?.["schema"] as Json | undefined)?.["maximum"]
      })
    }
  }
  return found
}

describe("Every list endpoint documents its bound (issue 37)", () => {
  it("finds the lists of the contract", () => {
    const names = listOperations().map((operation) => operation.name)
    expect(names).toContain("GET /planning/conflicts")
    expect(names).toContain("GET /planning/sessions")
  })

  it("each takes a limit with a maximum, or holds a fixed bound named here", () => {
    const unbounded = listOperations().filter((operation) =>
      typeof operation.limitMaximum !== "number" && fixedBounds[operation.name] === undefined
    )
    expect(unbounded.map((operation) => operation.name)).toEqual([])
  })
})
