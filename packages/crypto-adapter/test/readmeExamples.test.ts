import { readFile } from "node:fs/promises"
import { afterEach, describe, expect, it, vi } from "vitest"

/**
 * Each README's TypeScript example is one of the files in `readme/`, verbatim: the package's
 * typecheck checks them, and this test runs them. The core example lives here because it needs
 * this package too, which depends on core.
 */
const examples = [
  {
    readme: "../../core/README.md",
    file: "./readme/coreExample.ts",
    prints: "Coach Marie created with id 1"
  },
  {
    readme: "../README.md",
    file: "./readme/cryptoExample.ts",
    prints: "password verified: true; token of user 7, COACH"
  }
] as const

const text = (path: string) => readFile(new URL(path, import.meta.url), "utf8")

/** The README's ```ts blocks, without their fences. */
const typeScriptBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gmu)].map((match) => match[1])

afterEach(() => {
  vi.restoreAllMocks()
})

describe("the README examples", () => {
  for (const { file, prints, readme } of examples) {
    it(`${readme} shows ${file} as it is`, async () => {
      expect(typeScriptBlocks(await text(readme))).toEqual([await text(file)])
    })

    it(`${file} runs and prints what the README says`, async () => {
      const log = vi.spyOn(console, "log").mockImplementation(() => undefined)
      await import(file)
      expect(log.mock.calls).toEqual([[prints]])
      expect(await text(readme)).toContain(prints)
    })
  }
})
