import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/main.ts", "src/index.ts", "src/dataTransfer.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
