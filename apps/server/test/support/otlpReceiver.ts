import * as Http from "node:http"
import type * as Net from "node:net"
import protobuf from "protobufjs"

/**
 * The part of OpenTelemetry's OTLP trace protocol a receiver reads (opentelemetry-proto:
 * collector/trace/v1/trace_service.proto, trace/v1/trace.proto, common/v1/common.proto,
 * resource/v1/resource.proto), with the field numbers of the specification; protobufjs decodes it.
 */
const otlpTraceProto = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  SpanKind kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  fixed32 flags = 16;
}
enum SpanKind { SPAN_KIND_UNSPECIFIED = 0; SPAN_KIND_INTERNAL = 1; SPAN_KIND_SERVER = 2; SPAN_KIND_CLIENT = 3; SPAN_KIND_PRODUCER = 4; SPAN_KIND_CONSUMER = 5; }
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Status { string message = 2; StatusCode code = 3; }
enum StatusCode { STATUS_CODE_UNSET = 0; STATUS_CODE_OK = 1; STATUS_CODE_ERROR = 2; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`

const ExportTraceServiceRequest = protobuf.parse(otlpTraceProto, { keepCase: false }).root.lookupType(
  "otlp.ExportTraceServiceRequest"
)

/** OTLP's span kinds by number. */
export const SpanKind = { internal: 1, server: 2, client: 3 } as const

export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  /** Empty for a root span. */
  readonly parentSpanId: string
  readonly name: string
  readonly kind: number
  readonly attributes: Readonly<Record<string, unknown>>
  readonly serviceName: unknown
  /** How the batch came: `protobuf` or `json`. */
  readonly encoding: "protobuf" | "json"
  readonly path: string
}

interface AnyValue {
  readonly stringValue?: string
  readonly boolValue?: boolean
  readonly intValue?: string | number
  readonly doubleValue?: number
}

interface KeyValue {
  readonly key: string
  readonly value?: AnyValue
}

interface DecodedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes?: ReadonlyArray<KeyValue>
}

interface Decoded {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: ReadonlyArray<KeyValue> }
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<DecodedSpan> }>
  }>
}

const valueOf = (value: AnyValue | undefined): unknown =>
  value?.stringValue ?? value?.boolValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue)) ??
    value?.doubleValue

const attributesOf = (attributes: ReadonlyArray<KeyValue> | undefined) =>
  Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]))

/** OTLP/JSON writes ids in hex; protobufjs's `toObject` with `bytes: String` gives base64: both become hex here. */
const hex = (id: string | undefined, encoding: "protobuf" | "json") =>
  id === undefined || id === ""
    ? ""
    : encoding === "json"
    ? id.toLowerCase()
    : Buffer.from(id, "base64").toString("hex")

/**
 * A real OTLP/HTTP receiver, as a collector would be: it accepts POSTs of
 * `ExportTraceServiceRequest` in protobuf (`application/x-protobuf`) or JSON (`application/json`),
 * answers 200 with an empty `ExportTraceServiceResponse`, and keeps every span it received.
 */
export const startOtlpReceiver = async () => {
  const spans: Array<ReceivedSpan> = []
  const refused: Array<string> = []
  const server = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks)
      const type = request.headers["content-type"] ?? ""
      const path = request.url ?? ""
      try {
        if (request.method !== "POST") throw new Error(`${request.method} ${path}`)
        const encoding = type.startsWith("application/x-protobuf")
          ? "protobuf"
          : type.startsWith("application/json")
          ? "json"
          : undefined
        if (encoding === undefined) throw new Error(`content-type ${type}`)
        const decoded = (encoding === "json"
          ? JSON.parse(body.toString("utf8"))
          : ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
            bytes: String,
            longs: String,
            enums: Number
          })) as Decoded
        for (const resourceSpans of decoded.resourceSpans ?? []) {
          const serviceName = attributesOf(resourceSpans.resource?.attributes)["service.name"]
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: hex(span.traceId, encoding),
                spanId: hex(span.spanId, encoding),
                parentSpanId: hex(span.parentSpanId, encoding),
                name: span.name,
                kind: Number(span.kind),
                attributes: attributesOf(span.attributes),
                serviceName,
                encoding,
                path
              })
            }
          }
        }
        response.writeHead(200, {
          "content-type": type.startsWith("application/json") ? "application/json" : "application/x-protobuf"
        })
        response.end(type.startsWith("application/json") ? "{}" : undefined)
      } catch (error) {
        refused.push(String(error))
        response.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as Net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
