import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/rest.ts", "src/fetch.ts", "src/todo.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
