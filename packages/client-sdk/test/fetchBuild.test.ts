import { build } from "esbuild"
import { readFileSync } from "node:fs"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
// @ts-expect-error -- a plain script of the package, without declarations
import { operationsSource } from "../scripts/generate-operations.mjs"

/** The most a browser app's bundle of the light client may weigh, gzipped (issue 40). */
const budgetBytes = 30 * 1024

describe("the light REST client (@club/client-sdk/fetch)", () => {
  it(
    "its table of operations is what the contract's OpenAPI document gives today (`pnpm --filter @club/client-sdk generate`)",
    () => {
      const committed = readFileSync(new URL("../src/fetch/operations.gen.ts", import.meta.url), "utf8")
      expect(committed).toBe((operationsSource as () => string)())
    },
    60_000
  )

  it("a one-line browser app importing it bundles, minified, within 30 KB gzipped, without effect", async () => {
    const result = await build({
      stdin: {
        contents: `import { ClubRestClient } from "./src/fetch.ts"\nObject.assign(globalThis, { ClubRestClient })\n`,
        resolveDir: new URL("..", import.meta.url).pathname,
        loader: "ts"
      },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    const code = result.outputFiles[0]!.contents
    const gzipped = gzipSync(code, { level: 9 }).byteLength
    console.log(`[bundle] @club/client-sdk/fetch: ${code.byteLength} bytes minified, ${gzipped} bytes gzipped`)
    expect(Object.keys(result.metafile.inputs).filter((input) => /node_modules\/effect\//u.test(input))).toEqual([])
    expect(gzipped).toBeLessThanOrEqual(budgetBytes)
  }, 60_000)
})
