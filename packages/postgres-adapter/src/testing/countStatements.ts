import { Effect, Tracer } from "effect"

export interface Counted<A> {
  readonly result: A
  /** The text of every SQL statement executed, in order. */
  readonly statements: ReadonlyArray<string>
}

/** effect/sql opens one client span per statement it executes and records the SQL on it. */
const queryTextAttribute = "db.query.text"

/**
 * Runs `effect` under a tracer that records spans, and returns the SQL statements it executed.
 * Counted on the client side, so it works the same on PGlite and on a PostgreSQL server.
 */
export const countStatements = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Counted<A>, E, R> =>
  Effect.suspend(() => {
    const spans: Array<Tracer.Span> = []
    const recordingTracer = Tracer.make({
      span(options) {
        const span = new Tracer.NativeSpan(options)
        spans.push(span)
        return span
      }
    })
    return effect.pipe(
      Effect.withTracer(recordingTracer),
      Effect.map((result) => ({
        result,
        statements: spans.flatMap((span) => {
          const text = span.kind === "client" ? span.attributes.get(queryTextAttribute) : undefined
          return typeof text === "string" ? [text] : []
        })
      }))
    )
  })
