import { defineConfig } from "tsup"

export default defineConfig({ entry: ["src/index.ts", "src/contract.ts"], format: ["esm"], dts: true, sourcemap: true, clean: true })
