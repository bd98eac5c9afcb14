// First, before any schema is built: effect's schema compiler generates each codec's decoder and
// encoder once, instead of interpreting the schema on every value (docs/DECISIONS.md, "Schemas
// compiled by effect's JIT compiler"). The server is imported after it, dynamically, so that no
// bundling can hoist the modules that build schemas above it.
import "effect/schema/SchemaJITCompiler/enable"

await import("./serve.ts")
