import { Effect, type Tracer } from "effect"

/**
 * `Effect.fn(name)`, with the same span around every call, but without the call site's stack trace.
 * `Effect.fn` builds an `Error` on every call, to show the calling line in a failure's trace.
 * A request makes five such calls: authentication, the credentials lookup, the use-case, its
 * authorization and the repository. Together they showed among the costliest parts of a small
 * read (README "Performance" has the figures). Only that calling line is lost. The span keeps its name and
 * nesting, and a defect keeps the stack trace of where it was thrown.
 */
export const traced = (name: string, options?: Tracer.SpanOptionsNoTrace): typeof Effect.fnUntraced => {
  const span = Effect.withSpan(name, options, { captureStackTrace: false })
  // oxlint-disable-next-line no-explicit-any -- passes Effect.fnUntraced's overloads through unchanged
  const untraced = Effect.fnUntraced as (...parts: Array<any>) => any
  // oxlint-disable-next-line no-explicit-any -- as above
  return ((...parts: Array<any>) => untraced(...parts, span)) as typeof Effect.fnUntraced
}
