import { ClubApi } from "@club/contract/rest"
import { OpenApi } from "effect/http-api"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const glossary = readFileSync(new URL("../../../../docs/GLOSSARY.md", import.meta.url), "utf8")

/** The names the glossary explains: the first cell of each row of its table. */
const terms = [...glossary.matchAll(/^\| `([A-Za-z]+)` \|/gmu)].map((match) => match[1]!)

/** Every property name of the document's schemas and parameters, and every segment of its paths. */
const namesInDocument = (): ReadonlySet<string> => {
  const document = OpenApi.fromApi(ClubApi)
  const names = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (typeof value !== "object" || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === "properties" && typeof child === "object" && child !== null) {
        Object.keys(child).forEach((name) => names.add(name))
      }
      if (key === "parameters" && Array.isArray(child)) {
        child.forEach((parameter: { name?: string }) => parameter.name !== undefined && names.add(parameter.name))
      }
      walk(child)
    }
  }
  walk(document)
  Object.keys(document.paths).forEach((path) => path.split("/").forEach((segment) => names.add(segment)))
  return names
}

describe("docs/GLOSSARY.md", () => {
  it("explains the seed's French names", () => {
    expect(terms).toEqual(expect.arrayContaining(["creneau", "duree", "groupe", "activite", "niveau", "categorie"]))
  })

  it("names only fields, parameters and path segments the contract has", () => {
    const names = namesInDocument()
    expect(terms.filter((term) => !names.has(term))).toEqual([])
  })

  it("gives each name its meaning, its JSON type and an example", () => {
    const rows = glossary.split("\n").filter((line) => /^\| `[A-Za-z]+` \|/u.test(line))
    expect(rows).toHaveLength(terms.length)
    for (const row of rows) {
      const cells = row.slice(2, -2).split(" | ")
      expect(cells, row).toHaveLength(5)
      expect(cells.filter((cell) => cell.trim() === ""), row).toEqual([])
    }
  })
})
