import { Cause, Effect, Exit, Layer, Tracer } from "effect"

/**
 * A feed URL carries its token in the path (`/planning/feeds/{token}/athlete/3.ics`): a bearer
 * secret, which no log line and no span may keep (issue 37). Every place that writes a request's
 * URL out of the process goes through `redactFeedTokens`: the JSON logger and the tracer.
 */
const feedToken = /(\/planning\/feeds\/)[^/?#\s"]+/gu

/** `text` with every feed token in it replaced by `{token}`. */
export const redactFeedTokens = (text: string): string =>
  text.includes("/planning/feeds/") ? text.replace(feedToken, "$1{token}") : text

const redactValue = (value: unknown): unknown => typeof value === "string" ? redactFeedTokens(value) : value

/**
 * `tracer`, with every span's name and string attributes redacted (`url.full`, `url.path`,
 * `http.url`, whatever sets them: the request span, a client span, a handler).
 */
export const redactingTracer = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    ...(tracer.context === undefined ? {} : { context: tracer.context }),
    span(options) {
      const span = tracer.span({ ...options, name: redactFeedTokens(options.name) })
      const attribute = span.attribute.bind(span)
      span.attribute = (key, value) => attribute(key, redactValue(value))
      // A failed request span carries its error, whose message may name the path (a 5xx's).
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        if (Exit.isSuccess(exit)) return end(endTime, exit)
        const pretty = Cause.pretty(exit.cause)
        return end(
          endTime,
          pretty.includes("/planning/feeds/") ? Exit.die(new Error(redactFeedTokens(pretty))) : exit
        )
      }
      return span
    }
  })

/** Lays `redactingTracer` over the tracer the context has (an exporter's). */
export const RedactingTracer: Layer.Layer<never> = Layer.effect(
  Tracer.Tracer,
  Effect.map(Effect.service(Tracer.Tracer), redactingTracer)
)
