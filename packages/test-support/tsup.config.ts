import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/expectations.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
