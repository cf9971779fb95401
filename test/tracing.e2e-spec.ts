import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ENGINE } from '../src/config/engine';
import { BuiltServer } from './helpers/built-server';
import { migratedDatabase } from './helpers/migrated-database';
import { OtlpReceiver, ReceivedSpan } from './helpers/otlp-receiver';
import { StandInModel } from './helpers/stand-in-model';
import { waitFor } from './helpers/wait';
import { WebhookReceiver } from './helpers/webhook-receiver';

const EMAIL = 'katherine.traced@example.com';
const ANSWER = 'Marmalade lighthouses whisper about spreadsheets';
const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;

/**
 * OTEL_EXPORTER_OTLP_ENDPOINT: the built server (the SDK must start before the app loads) exports its
 * spans over OTLP/HTTP to a stand-in collector, which decodes them. An interview through the room, a
 * webhook that fails once and is then delivered, and a report by an analyst on a stand-in model server;
 * then the spans' names, parents and attributes, and a search of everything exported for the linkID,
 * the token, the e-mail and the answer.
 */
jest.setTimeout(120_000);

describe.each(['http/protobuf', 'http/json'])('Traces (OTEL_EXPORTER_OTLP_ENDPOINT, %s)', (protocol) => {
  let dir: string;
  let db: DataSource;
  let token: string;
  let server: BuiltServer | undefined;
  let collector: OtlpReceiver;
  let hooks: WebhookReceiver;
  let model: StandInModel;
  let modelOrigin: string;
  let webhookID: string | undefined;
  let linkID: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'irs-tracing-'));
    const databaseUrl = ENGINE === 'mysql' ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'd.sqlite')}`;
    ({ db, token } = await migratedDatabase(databaseUrl, 'tracing'));
    collector = await OtlpReceiver.start();
    hooks = await WebhookReceiver.start();
    model = new StandInModel([{ labels: ['Spreadsheets'], description: 'Answers about spreadsheets', pattern: /spreadsheets/i }]);
    const modelUrl = await model.start();
    modelOrigin = new URL(modelUrl).origin;
    server = await BuiltServer.start(dir, {
      INTERVIEWER_AGENTS: model.agents(modelUrl),
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_LOCAL: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.3,0.3',
      RATE_LIMIT_MAX: '1000000',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      // http/protobuf is the SDK's default: set here only to say so.
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      // Export every 100 ms rather than every 5 s: the test waits for what it looks for, not longer.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // Were an OTLP metric pipeline started, it would post every 200 ms (see the last test).
      OTEL_METRIC_EXPORT_INTERVAL: '200',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e',
      // Every trace, to look at each of them (the default keeps a tenth: see "Traces at the default sampling").
      OTEL_TRACES_SAMPLER: 'always_on',
    });
  }, 100_000);

  afterAll(async () => {
    await server?.kill();
    if (webhookID) await db.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
    await db.destroy();
    await collector.close();
    await hooks.close();
    await model.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, auth = true) => {
    const res = await fetch(`${server!.base}${path}`, {
      method,
      headers: { ...(auth ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { result: any };
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.result;
  };

  const named = (name: string) => collector.spans.filter((s) => s.name === name);
  const spansFor = (name: string, count = 1) => waitFor(`${count} span(s) ${name}`, async () => (named(name).length >= count ? named(name) : undefined), 15_000);

  it('exports the spans of an interview, a webhook failure and retry, and a report', async () => {
    const orgID = `org_trace_${Date.now()}`;
    const { productID } = await call('POST', '/v1/products/addOne', { name: 'Traced', orgID });
    const { interviewID } = await call('POST', '/v1/interviews/addOne', { productID, interviewName: 'Traced', guidelines: '1. What do you use it for?' });
    const path = '/hook/traced';
    const hook = await call('POST', '/v1/webhooks/addOne', { url: hooks.url(path), orgID, events: ['invite.started'] });
    webhookID = hook.webhookID;
    hooks.register(path, hook.secret);
    hooks.behave(path, (attempt) => (attempt === 1 ? 503 : 204));
    const [url] = (await call('GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=1`)) as string[];
    linkID = url.split('/').pop()!;
    await call('POST', `/i/${linkID}/start`, { name: 'Katherine Johnson', email: EMAIL, consent: true }, false);
    await call('POST', `/i/${linkID}/reply`, { content: ANSWER }, false);
    await call('POST', `/i/${linkID}/end`, {}, false);
    await hooks.waitFor(path, 2);
    const { reportID } = await call('POST', '/v1/reports/addOne', { interviewID, analyst: 'stand-in' });
    await waitFor('the report', async () => ((await call('GET', `/v1/reports/getOne?reportID=${reportID}`)).status === 'completed' ? true : undefined), 20_000);

    expect([...collector.contentTypes]).toEqual([protocol === 'http/json' ? 'application/json' : 'application/x-protobuf']);
    // A span per request, named by its route template, as a server span.
    const [reply] = await spansFor('POST /i/:linkID/reply');
    expect({ kind: reply.kind, route: reply.attributes['http.route'], path: reply.attributes['url.path'], status: reply.attributes['http.response.status_code'] }).toEqual({
      kind: 2,
      route: '/i/:linkID/reply',
      path: '/i/:linkID/reply',
      status: 200,
    });
    expect(reply.parentSpanId || undefined).toBeUndefined();
    expect(reply.resource).toMatchObject({ 'service.name': 'interview-research-service', 'service.version': VERSION, 'deployment.environment.name': 'e2e' });

    // The agent's turn, inside the request that asked for it.
    const turns = await spansFor('interviewer.turn', 2);
    const turnInReply = turns.find((t) => t.traceId === reply.traceId)!;
    expect(turnInReply.attributes).toEqual({ 'irs.agent': 'default', 'irs.agent.kind': 'builtin' });
    expect(collector.ancestors(turnInReply).map((s) => s.spanId)).toContain(reply.spanId);
    // Under the request's span: the agent's turn and the queries, no span per middleware or handler layer.
    const inReply = collector.spans.filter((s) => s.traceId === reply.traceId && s.spanId !== reply.spanId);
    expect(inReply.filter((s) => s.name !== 'interviewer.turn' && !(s.kind === 3 && (s.attributes['db.system.name'] ?? s.attributes['db.system'])))).toEqual([]);

    // Two sends of the webhook (503, then delivered), each a root span with the HTTP request as its child.
    const sends = await spansFor('webhook.send', 2);
    expect(sends.map((s) => s.attributes['irs.webhook.result']).sort()).toEqual(['delivered', 'failed']);
    const clientSpans: string[] = [];
    for (const send of sends) {
      expect(send.parentSpanId || undefined).toBeUndefined();
      const http = await waitFor('the send\'s HTTP span', async () => collector.spans.find((s) => s.parentSpanId === send.spanId && s.kind === 3 && s.attributes['http.request.method'] === 'POST'));
      expect(http.attributes['url.full']).toBe(hooks.base);
      clientSpans.push(`00-${http.traceId}-${http.spanId}-01`);
    }
    // Each delivery carried its HTTP span's trace context, so the endpoint's own traces join ours.
    expect(hooks.at(path).map((r) => r.traceparent).sort()).toEqual(clientSpans.sort());

    const [run] = await spansFor('report.run');
    expect(run.attributes).toMatchObject({ 'irs.report.analyst': 'stand-in', 'irs.report.attempt': 1 });
    expect(run.parentSpanId || undefined).toBeUndefined();
    // Each request to the model server is a client span inside the run, its origin alone, and carried its
    // trace context, so a model server's own traces join ours.
    expect(model.requests.length).toBeGreaterThan(0);
    const modelSpans = await waitFor('the model requests\' spans', async () => {
      const found = collector.spans.filter((s) => s.kind === 3 && s.attributes['url.full'] === modelOrigin);
      return found.length >= model.requests.length ? found : undefined;
    });
    for (const span of modelSpans) {
      expect({ method: span.attributes['http.request.method'], status: span.attributes['http.response.status_code'], inRun: collector.ancestors(span).some((a) => a.spanId === run.spanId) }).toEqual({ method: 'POST', status: 200, inRun: true });
    }
    expect(model.requests.map((r) => r.traceparent).sort()).toEqual(modelSpans.map((span) => `00-${span.traceId}-${span.spanId}-01`).sort());

    if (ENGINE === 'mysql') {
      // Queries are children of the request (or job) that ran them, their values masked.
      const queries = collector.spans.filter((s) => s.traceId === reply.traceId && s.kind === 3 && !s.attributes['http.request.method']);
      expect(queries.length).toBeGreaterThan(0);
      const texts = queries.map((q) => String(q.attributes['db.query.text'] ?? q.attributes['db.statement']));
      expect(texts.some((text) => /\binvites\b/.test(text))).toBe(true);
    }
  });

  it('names a request no route matched by its method alone', async () => {
    const res = await fetch(`${server!.base}/v1/no-such-thing/${linkID}?email=${encodeURIComponent(EMAIL)}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
    const unrouted = await waitFor('the 404 span', async () => collector.spans.find((s) => s.kind === 2 && s.attributes['http.response.status_code'] === 404));
    expect({ name: unrouted.name, route: unrouted.attributes['http.route'], path: unrouted.attributes['url.path'], query: unrouted.attributes['url.query'] }).toEqual({
      name: 'GET',
      route: undefined,
      path: '(no route)',
      query: '(redacted)',
    });
  });

  it('sends the collector traces only: no OTLP metrics or logs unless OTEL_METRICS_EXPORTER or OTEL_LOGS_EXPORTER asks', () => {
    expect(collector.spans.length).toBeGreaterThan(0);
    expect(collector.refused).toEqual([]);
  });

  it('puts no linkID, token, e-mail or answer in any exported attribute', async () => {
    // What is searched holds the spans of the requests that carried them, and of the work that read them.
    expect(collector.spans.map((s) => s.name)).toEqual(expect.arrayContaining(['POST /i/:linkID/start', 'POST /i/:linkID/reply', 'POST /i/:linkID/end', 'interviewer.turn', 'webhook.send', 'report.run']));
    const values = (span: ReceivedSpan) => [span.name, ...Object.values(span.attributes), ...span.events.flatMap((e) => Object.values(e.attributes)), ...Object.values(span.resource)].map((v) => JSON.stringify(v));
    const everything = collector.spans.flatMap(values);
    for (const secret of [linkID, token, token.slice(4, 20), EMAIL, 'Katherine', 'Marmalade', 'lighthouses', 'spreadsheets']) {
      expect({ secret, found: everything.filter((v) => v.includes(secret)) }).toEqual({ secret, found: [] });
      // And nowhere in what was sent at all (ids, names, anything).
      expect({ secret, inRaw: collector.raw.some((body) => body.includes(secret)) }).toEqual({ secret, inRaw: false });
    }
  });
});

describe('Traces at shutdown', () => {
  it('sends the spans still batched when the server stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'irs-tracing-stop-'));
    const collector = await OtlpReceiver.start();
    try {
      const databaseUrl = ENGINE === 'mysql' ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'd.sqlite')}`;
      const server = await BuiltServer.start(dir, {
        DATABASE_URL: databaseUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        // Nothing would be exported for a minute: what arrives was sent by the shutdown.
        OTEL_BSP_SCHEDULE_DELAY: '60000',
        OTEL_TRACES_SAMPLER: 'always_on',
      });
      const res = await fetch(`${server.base}/health/live`);
      expect(res.status).toBe(200);
      expect(collector.spans).toEqual([]);
      const exit = await server.kill('SIGTERM');
      expect(exit.code).toBe(0);
      expect(collector.spans.filter((s) => s.kind === 2).map((s) => s.name)).toEqual(['GET /health/live']);
    } finally {
      await collector.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Traces at the default sampling (parent-based, a tenth of new traces)', () => {
  it('follows a caller\'s sampled traceparent every time, never an unsampled one, and keeps about a tenth of its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'irs-tracing-sampling-'));
    const collector = await OtlpReceiver.start();
    try {
      const databaseUrl = ENGINE === 'mysql' ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'd.sqlite')}`;
      const server = await BuiltServer.start(dir, { DATABASE_URL: databaseUrl, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100', RATE_LIMIT_MAX: '1000000' });
      try {
        const CALLER = 'feed'.repeat(7);
        const traceparent = (sampled: boolean, i: number) => `00-${CALLER}${(i + 1).toString(16).padStart(4, '0')}-${'b'.repeat(16)}-${sampled ? '01' : '00'}`;
        for (let i = 0; i < 20; i++) expect((await fetch(`${server.base}/health/live`, { headers: { traceparent: traceparent(true, i) } })).status).toBe(200);
        for (let i = 20; i < 40; i++) expect((await fetch(`${server.base}/health/live`, { headers: { traceparent: traceparent(false, i) } })).status).toBe(200);
        const own = 300;
        for (let i = 0; i < own; i++) expect((await fetch(`${server.base}/health/live`)).status).toBe(200);
        const servers = () => collector.spans.filter((s) => s.kind === 2);
        await waitFor('the sampled callers\' spans', async () => (servers().filter((s) => s.traceId.startsWith(CALLER)).length >= 20 ? true : undefined));
        await server.kill('SIGTERM');
        const followed = servers().filter((s) => s.traceId.startsWith(CALLER));
        expect(new Set(followed.map((s) => s.traceId)).size).toBe(20);
        // Only the sampled callers' traces: those sent as unsampled (ids 21 to 40) are not there.
        expect(followed.every((s) => parseInt(s.traceId.slice(-4), 16) <= 20)).toBe(true);
        // Of the traces begun here, about a tenth (300 at p = 0.1: fewer than 1 or more than 70 is below one in a million).
        const begunHere = servers().length - followed.length;
        expect(begunHere).toBeGreaterThanOrEqual(1);
        expect(begunHere).toBeLessThanOrEqual(70);
      } finally {
        await server.kill('SIGKILL');
      }
    } finally {
      await collector.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

