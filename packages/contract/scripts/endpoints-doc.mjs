// Writes docs/ENDPOINTS.md, the table of every REST endpoint, from the contract's OpenAPI document:
// the same document the server serves at /openapi.json, so the table says what the server does.
// Run with `pnpm --filter @club/contract docs:endpoints` after the contract is built;
// test/endpointsDoc.test.ts fails while the committed file differs from what this writes.
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { OpenApi } from "effect/http-api"
import { ClubApi } from "../dist/rest.js"

const target = new URL("../../../docs/ENDPOINTS.md", import.meta.url)

const methods = ["get", "post", "put", "patch", "delete"]

/** Markdown table cells: a `|` would end the cell, a line break the row. */
const cell = (text) => text.replaceAll("|", "\\|").replaceAll("\n", " ")

/**
 * Who may call an operation, from the sentence its description ends with (`**Who may call it:** ...`,
 * written from core's role table): the callers, without what the others are answered.
 */
const whoMayCall = (where, description) => {
  const marker = "**Who may call it:** "
  const start = description.lastIndexOf(marker)
  if (start === -1) throw new Error(`${where}: its description does not say who may call it`)
  const rule = description.slice(start + marker.length)
  const end = [". Any other", ". Without"].map((ending) => rule.indexOf(ending)).filter((at) => at !== -1)
  return end.length === 0 ? rule.replace(/\.$/u, "") : rule.slice(0, Math.min(...end))
}

/** The document's operations by tag, each tag in the document's order, each in the order its paths are listed. */
const operationsByTag = (document) => {
  const byTag = new Map((document.tags ?? []).map((tag) => [tag.name, { tag, rows: [] }]))
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method]
      if (operation === undefined) continue
      const where = `${method.toUpperCase()} ${path}`
      const [tagName] = operation.tags ?? []
      const entry = byTag.get(tagName)
      if (entry === undefined) throw new Error(`${where}: no tag of the document names it`)
      if (typeof operation.summary !== "string") throw new Error(`${where}: no summary`)
      entry.rows.push([method.toUpperCase(), path, operation.summary, whoMayCall(where, operation.description ?? "")])
    }
  }
  return [...byTag.values()].filter(({ rows }) => rows.length > 0)
}

export const endpointsDoc = () => {
  const groups = operationsByTag(OpenApi.fromApi(ClubApi))
  const count = groups.reduce((sum, { rows }) => sum + rows.length, 0)
  const sections = groups.map(({ rows, tag }) =>
    [
      `## ${tag.name}`,
      "",
      ...(tag.description === undefined ? [] : [cell(tag.description), ""]),
      "| Method | Path | Summary | Who may call it |",
      "|---|---|---|---|",
      ...rows.map(([method, path, summary, who]) => `| ${method} | \`${path}\` | ${cell(summary)} | ${cell(who)} |`),
      ""
    ].join("\n")
  )
  return `<!-- Generated from the contract by packages/contract/scripts/endpoints-doc.mjs: do not edit.
     \`pnpm --filter @club/contract docs:endpoints\` writes it; packages/contract/test/endpointsDoc.test.ts checks it. -->

# Endpoints

Every REST endpoint of the contract (${count}), as the OpenAPI document at \`/openapi.json\` describes
them, grouped as \`/docs\` shows them. "Who may call it" is the role rule the server enforces (core's
role table); any other caller is answered 403, and a call without a valid token 401. Every request
and answer, every error and every parameter is in the OpenAPI document and at \`/docs\`; the French
field names are in [GLOSSARY.md](GLOSSARY.md). The server also answers \`GET /\` (where to go),
\`GET /openapi.json\`, \`GET /docs\`, \`GET /metrics\` ([CONFIGURATION.md](CONFIGURATION.md)), and
\`todo.TodoService\` with gRPC reflection and health over Connect, gRPC-Web and gRPC (README).

${sections.join("\n")}`
}

/** The file as committed. */
export const committedEndpointsDoc = () => readFileSync(target, "utf8")

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(target, endpointsDoc())
}
