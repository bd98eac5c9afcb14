import { defineConfig } from "tsup"

export default defineConfig({
  // The embedded database's worker is a script of its own, found beside the code that starts it.
  entry: { index: "src/index.ts", testing: "src/testing/index.ts", pgliteWorker: "src/database/pgliteWorker.ts" },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
