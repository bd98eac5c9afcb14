import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/expectations.ts", "src/rest/index.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
