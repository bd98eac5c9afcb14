import { defineConfig } from "tsup"

export default defineConfig({
  // The embedded database's worker and the fresh cluster's extraction are scripts of their own, found beside the code that starts them.
  entry: {
    index: "src/index.ts",
    testing: "src/testing/index.ts",
    pgliteWorker: "src/database/pgliteWorker.ts",
    freshClusterExtract: "src/database/freshClusterExtract.ts"
  },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
