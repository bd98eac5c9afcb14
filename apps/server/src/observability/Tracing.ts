import { RedactingTracer } from "./Redaction.ts"
import { Layer, Option, References } from "effect"
import { FetchHttpClient, HttpMiddleware } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { AppConfig, type OtlpTracing } from "../AppConfig.ts"
import { makeRouteClassifier, unmatchedRoute } from "./metrics/Routes.ts"
import { routerConfig } from "../Server.ts"

/**
 * No tracer is configured, so the spans Effect builds for every use-case, repository call and SQL
 * statement would be built only to be dropped: several per request, measurable on the bench.
 * Whoever adds an exporter turns this back on next to it.
 */
export const TracingDisabled: Layer.Layer<never> = Layer.succeed(References.TracerEnabled, false)

/**
 * Effect's own OTLP exporter (`effect/observability`): ended spans are batched and posted to the
 * endpoint over HTTP, in protobuf or JSON, with Node's `fetch`; the batch still buffered is sent on
 * shutdown. Its own requests are not traced. A collector that does not answer makes it drop spans
 * for a minute rather than hold them.
 */
export const otlpTracing = (otlp: OtlpTracing) =>
  OtlpTracer.layer({
    url: otlp.url,
    resource: { serviceName: otlp.serviceName },
    headers: otlp.headers
  }).pipe(
    Layer.provide(otlp.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer),
    // Every span's URL attributes lose their feed tokens before the exporter sees them.
    (exporter) => Layer.provide(RedactingTracer, exporter),
    Layer.merge(requestSpanNames)
  )

/**
 * A request's span is named as OpenTelemetry's HTTP conventions say: its method and route template
 * (`GET /session/{id}`), or its method alone when no route takes it; never its raw path.
 */
const requestSpanNames = Layer.sync(HttpMiddleware.SpanNameGenerator, () => {
  const classify = makeRouteClassifier(routerConfig)
  return (request) => {
    const { method, route } = classify(request.method, request.url, request.headers["content-type"])
    return route === unmatchedRoute ? method : `${method} ${route}`
  }
})

/** The OTEL_* variables: spans exported over OTLP when an endpoint is given, tracing off otherwise (as before). */
export const TracingFromConfig = Layer.unwrap(
  AppConfig.useSync((config) =>
    Option.match(config.tracing, {
      onNone: () => TracingDisabled,
      onSome: otlpTracing
    })
  )
)
