import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/testing.ts", "src/calendar.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
