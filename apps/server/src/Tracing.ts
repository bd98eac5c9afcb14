import { Layer, References } from "effect"

/**
 * No tracer is configured, so the spans Effect builds for every use-case, repository call and SQL
 * statement would be built only to be dropped: several per request, measurable on the bench.
 * Whoever adds an exporter turns this back on next to it.
 */
export const TracingDisabled: Layer.Layer<never> = Layer.succeed(References.TracerEnabled, false)
