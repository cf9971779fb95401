import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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
 * A stand-in OpenTelemetry collector: the OTLP/HTTP trace endpoint (POST /v1/traces) taking the OTLP/JSON
 * encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), answering as a collector does, keeping every span.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every request body as it arrived, for a search of everything that was exported. */
  readonly raw: string[] = [];

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
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
      res.writeHead(415, { 'Content-Type': 'application/json' }).end('{}');
      return;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    this.raw.push(text);
    const body = JSON.parse(text) as ExportTraceServiceRequest;
    for (const rs of body.resourceSpans ?? []) {
      const resource = flat(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({ ...s, attributes: flat(s.attributes), events: (s.events ?? []).map((e) => ({ name: e.name, attributes: flat(e.attributes) })), resource });
        }
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
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
