import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/rest.ts", "src/todo.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true
})
