import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'protobufjs';

/**
 * The OTLP trace export request, from the official definitions (opentelemetry-proto:
 * collector/trace/v1/trace_service.proto, trace/v1/trace.proto, common/v1/common.proto,
 * resource/v1/resource.proto), the messages and fields a trace export uses.
 */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message Status { reserved 1; string message = 2; int32 code = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10;
  message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
  repeated Event events = 11; uint32 dropped_events_count = 12;
  message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
  repeated Link links = 13; uint32 dropped_links_count = 14; Status status = 15;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;
const ExportTraceServiceRequest = parse(OTLP_TRACE_PROTO, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

/** A protobuf export as the JSON encoding writes it (camelCase fields, ids in hex, 64-bit integers as strings). */
function fromProtobuf(body: Buffer): ExportTraceServiceRequest {
  const message = ExportTraceServiceRequest.decode(body);
  const hex = (b: unknown) => (b instanceof Uint8Array ? Buffer.from(b).toString('hex') : undefined);
  const object = ExportTraceServiceRequest.toObject(message, { longs: String, bytes: Array, defaults: false, oneofs: false }) as ExportTraceServiceRequest;
  // Ids: bytes in protobuf, hex in OTLP/JSON.
  const decoded = message as unknown as { resourceSpans?: { scopeSpans?: { spans?: { traceId: Uint8Array; spanId: Uint8Array; parentSpanId?: Uint8Array }[] }[] }[] };
  decoded.resourceSpans?.forEach((rs, i) =>
    rs.scopeSpans?.forEach((ss, j) =>
      ss.spans?.forEach((span, k) => {
        const target = object.resourceSpans![i].scopeSpans![j].spans![k];
        target.traceId = hex(span.traceId)!;
        target.spanId = hex(span.spanId)!;
        target.parentSpanId = span.parentSpanId && span.parentSpanId.length > 0 ? hex(span.parentSpanId) : undefined;
      }),
    ),
  );
  return object;
}

/** An OTLP attribute value as the OTLP/JSON encoding writes it. */
export interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
export interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}

/** A span as the receiver keeps it: OTLP's fields, attributes as a flat record, and its resource's. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status?: { code?: number };
  resource: Record<string, unknown>;
}

interface ExportTraceServiceRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'events' | 'resource'> & { attributes?: OtlpKeyValue[]; events?: { name: string; attributes?: OtlpKeyValue[] }[] })[] }[];
  }[];
}

function valueOf(v: OtlpValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.bytesValue !== undefined) return v.bytesValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  if (v.kvlistValue) return flat(v.kvlistValue.values);
  return undefined;
}

const flat = (kvs: OtlpKeyValue[] | undefined): Record<string, unknown> => Object.fromEntries((kvs ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

/**
 * A stand-in OpenTelemetry collector: the OTLP/HTTP trace endpoint (POST /v1/traces) taking either
 * encoding (http/protobuf, decoded with protobufjs and the official message definitions, or http/json),
 * answering as a collector does, keeping every span.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every request body as it arrived, for a search of everything that was exported. */
  readonly raw: string[] = [];
  /** The encodings the exports came in. */
  readonly contentTypes = new Set<string>();
  /** What it refused (`POST /v1/metrics`...): a collector for traces is sent nothing else. */
  readonly refused: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void receiver.handle(req, res));
    return receiver;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const type = req.headers['content-type'] ?? '';
    const json = type.startsWith('application/json');
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !(json || type.startsWith('application/x-protobuf'))) {
      this.refused.push(`${req.method} ${req.url}`);
      res.writeHead(415, { 'Content-Type': 'application/json' }).end('{}');
      return;
    }
    const bytes = Buffer.concat(chunks);
    // Strings are stored as UTF-8 in both encodings: the raw bytes, read as text, can be searched.
    this.raw.push(bytes.toString('utf8'));
    this.contentTypes.add(type.split(';')[0]);
    const body = json ? (JSON.parse(bytes.toString('utf8')) as ExportTraceServiceRequest) : fromProtobuf(bytes);
    for (const rs of body.resourceSpans ?? []) {
      const resource = flat(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({ ...s, attributes: flat(s.attributes), events: (s.events ?? []).map((e) => ({ name: e.name, attributes: flat(e.attributes) })), resource });
        }
      }
    }
    // An empty ExportTraceServiceResponse, in the request's encoding.
    if (json) res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    else res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
  }

  /** The span's ancestors, nearest first, as far as they were exported. */
  ancestors(span: ReceivedSpan): ReceivedSpan[] {
    const out: ReceivedSpan[] = [];
    let parentId = span.parentSpanId;
    while (parentId) {
      const parent = this.spans.find((s) => s.spanId === parentId && s.traceId === span.traceId);
      if (!parent) break;
      out.push(parent);
      parentId = parent.parentSpanId;
    }
    return out;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
