// First, before any schema is built: effect's schema compiler generates each codec's decoder and
// encoder once, instead of interpreting the schema on every value (docs/DECISIONS.md, "Schemas
// compiled by effect's JIT compiler"). The server is imported after it, dynamically, so that no
// bundling can hoist the modules that build schemas above it.
import "effect/schema/SchemaJITCompiler/enable"
import { setSourceMapsSupport } from "node:module"

// A stack trace names this project's TypeScript lines; the dependencies' source maps, and the
// sources they carry, are not loaded: held for the process's life, they were about a tenth of its
// resident memory (decision 0322). Before the server is imported, so that its modules' maps are read.
setSourceMapsSupport(true, { nodeModules: false })

await import("./serve.ts")
