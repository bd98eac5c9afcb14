// Writes src/fetch/operations.gen.ts, the light client's table of the REST operations, from the
// contract's OpenAPI document (and its groups, for the calls' names). Run with `pnpm generate`
// after the contract is built; test/operations.test.ts fails while the committed table differs
// from what this writes. It throws on an answer it cannot name, so that a new kind of answer in
// the contract is handled here before the light client meets it.
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { ClubApi } from "@club/contract/rest"
import { OpenApi } from "effect/http-api"

/** The seed's plain-text failures, by their schema's name in the document: the tag, and the prefix its message follows. */
const textFailures = {
  ActivityFailureText: ["ActivityFailed", "Error: "],
  SessionCreateFailureText: ["SessionCreateFailed", ""],
  SessionNotFoundText: ["SessionNotFoundText", ""]
}

const refName = (schema) => {
  const ref = schema?.$ref ?? schema?.anyOf?.find((one) => one.$ref !== undefined)?.$ref
  return typeof ref === "string" ? ref.slice(ref.lastIndexOf("/") + 1) : undefined
}

const operationOf = (document, group, name, endpoint) => {
  const path = endpoint.path.replace(/:(\w+)/gu, "{$1}")
  const operation = document.paths[path]?.[endpoint.method.toLowerCase()]
  if (operation === undefined) throw new Error(`${group}.${name}: ${endpoint.method} ${path} is not in the document`)
  const statuses = Object.keys(operation.responses).map(Number).sort((a, b) => a - b)
  const where = `${group}.${name}`
  const first2xx = statuses.find((status) => status >= 200 && status < 300)
  const successes = []
  const errors = []
  for (const status of statuses) {
    const response = operation.responses[String(status)]
    const content = response.content ?? {}
    if (Object.keys(content).length === 0) {
      // The seed's empty failures: a 404, and the 204 of an athlete update that answers 200 when it works.
      if (status === 404) errors.push([status, "NotFoundEmpty", "n"])
      else if (status === 204 && first2xx !== 204) errors.push([status, "AthleteUpdateFailed", "n"])
      else successes.push([status, "n"])
      continue
    }
    for (const [type, media] of Object.entries(content)) {
      const schemaName = refName(media.schema)
      if (type === "application/problem+json") errors.push([status, schemaName, "p"])
      else if (type === "text/plain" && schemaName in textFailures) {
        errors.push([status, textFailures[schemaName][0], "t"])
      } else if (response.headers?.location !== undefined && type.startsWith("text/")) successes.push([status, "l"])
      else if (type === "application/json") successes.push([status, "j"])
      else if (type.startsWith("text/")) successes.push([status, "t"])
      else throw new Error(`${where}: answer ${status} of an unknown kind, ${type}`)
    }
  }
  if (successes.length === 0) throw new Error(`${where}: no success`)
  for (const error of errors) {
    if (error[1] === undefined || !["n", "p", "t"].includes(error[2])) {
      throw new Error(`${where}: failure ${error[0]} (${error[2]}) has no known tag`)
    }
    const text = Object.values(textFailures).find(([tag]) => tag === error[1])
    if (error[2] === "t" && text?.[1] !== "") error.push(text[1])
  }
  return {
    m: endpoint.method,
    p: endpoint.path,
    r: endpoint.params !== undefined || endpoint.query !== undefined || endpoint.payload.size > 0 ? 1 : 0,
    a: (operation.security ?? document.security ?? []).length > 0 ? 1 : 0,
    s: successes,
    e: errors
  }
}

/** The table's source text. */
export const operationsSource = () => {
  const document = OpenApi.fromApi(ClubApi)
  const table = {}
  for (const [group, { endpoints }] of Object.entries(ClubApi.groups)) {
    // The seed's unprefixed coach paths are the same operations as `coaches`: the Promise face leaves them out.
    if (group === "rootCoaches") continue
    table[group] = {}
    for (const [name, endpoint] of Object.entries(endpoints)) {
      table[group][name] = operationOf(document, group, name, endpoint)
    }
  }
  const body = Object.entries(table).map(([group, calls]) =>
    `  ${JSON.stringify(group)}: {\n${
      Object.entries(calls).map(([name, operation]) => `    ${JSON.stringify(name)}: ${JSON.stringify(operation)}`)
        .join(",\n")
    }\n  }`
  ).join(",\n")
  return `// Generated from the contract's OpenAPI document by scripts/generate-operations.mjs: do not edit.
// test/operations.test.ts checks that it is up to date.
import type { Operation } from "./Operation.ts"

export const operations: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
${body}
}
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL("../src/fetch/operations.gen.ts", import.meta.url), operationsSource())
}
