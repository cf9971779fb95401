import { parser as promql } from '@prometheus-io/lezer-promql';
import { readFileSync } from 'node:fs';
import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ENGINE } from '../src/config/engine';
import { MetricsServer } from '../src/metrics/metrics-server';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { PromFamily, scrape, valueOf } from './helpers/prometheus';
import { waitFor } from './helpers/wait';
import { WebhookReceiver } from './helpers/webhook-receiver';

const EMAIL = 'grace.metrics@example.com';
const ANSWER = 'Tangerine zeppelins rarely photosynthesize on Thursdays';

/**
 * METRICS_PORT: a second listener serving only /metrics. Real traffic first (an interview through the
 * room, with an LLM agent whose model server fails, a webhook that fails once then succeeds, a report,
 * a rate-limit refusal), then a scrape parsed by a Prometheus text-format parser.
 */
describe('Metrics (METRICS_PORT)', () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  let model: Server;
  let metricsUrl: string;
  let families: Map<string, PromFamily>;
  let linkID: string;
  let webhookID: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    model = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    t = await startApp({
      METRICS_PORT: '0',
      WEBHOOK_ALLOW_LOCAL: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.3,0.3',
      ROOM_LINK_RATE_LIMIT_MAX: '5',
      INTERVIEWER_AGENTS: JSON.stringify({ flaky: { kind: 'openai', baseUrl: modelUrl, model: 'm' } }),
    });
    admin = await adminToken(t);
    metricsUrl = `http://127.0.0.1:${t.app.get(MetricsServer).port}/metrics`;
  });

  afterAll(async () => {
    if (webhookID) await t.db.query('DELETE FROM webhooks WHERE id = ?', [webhookID]);
    await t.close();
    await receiver.close();
    await new Promise((resolve) => model.close(resolve));
  });

  it('serves /metrics on its own port only: the public port and other paths answer 404', async () => {
    expect((await t.http.get('/metrics')).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/health'))).status).toBe(404);
    expect((await fetch(metricsUrl)).status).toBe(200);
  });

  it('counts real traffic: room turns, agent fallbacks, invite transitions, webhook attempts, reports, refusals', async () => {
    const orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID, name: 'Metered' });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: '1. What do you use it for?' });
    await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, interviewer: 'flaky' }).expect(200);
    const path = `/hook/${uniq('p')}`;
    const hook = await t.http.post('/v1/webhooks/addOne').set(bearer(admin)).send({ url: receiver.url(path), orgID, events: ['invite.started'] }).expect(201);
    webhookID = hook.body.result.webhookID;
    receiver.register(path, hook.body.result.secret);
    // The endpoint fails the first attempt; the retry is delivered.
    receiver.behave(path, (attempt) => (attempt === 1 ? 500 : 200));

    const invites = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin)).expect(200);
    linkID = new URL(invites.body.result[0]).pathname.split('/').pop()!;
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Grace Hopper', email: EMAIL, consent: true }).expect(200);
    await t.http.post(`/i/${linkID}/reply`).send({ content: ANSWER }).expect(200);
    await t.http.post(`/i/${linkID}/end`).send({}).expect(200);
    await receiver.waitFor(path, 2);

    const { reportID } = (await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID }).expect(201)).body.result;
    await waitFor('the report', async () => ((await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result.status === 'completed' ? true : undefined), 20_000);

    // Another link, hammered past its per-link limit.
    for (let i = 0; i < 6; i++) await t.http.get('/i/no-such-link/session');

    families = await waitFor('the delivered retry in the metrics', async () => {
      const got = await scrape(metricsUrl);
      return valueOf(got, 'irs_webhook_attempts_total', { result: 'delivered' }) >= 1 ? got : undefined;
    });

    expect(valueOf(families, 'irs_room_turns_total', { agent: 'flaky' })).toBe(2);
    expect(valueOf(families, 'irs_agent_turn_duration_seconds', { agent: 'flaky' })).toBe(2);
    // Each of the two turns fell back: the model server answered 500.
    expect(valueOf(families, 'irs_agent_fallbacks_total', { agent: 'flaky', reason: 'http-error' })).toBe(2);
    expect(valueOf(families, 'irs_invite_transitions_total', { status: 'started' })).toBe(1);
    expect(valueOf(families, 'irs_invite_transitions_total', { status: 'completed' })).toBe(1);
    expect(valueOf(families, 'irs_webhook_attempts_total', { result: 'failed' })).toBe(1);
    expect(valueOf(families, 'irs_webhook_attempts_total', { result: 'delivered' })).toBe(1);
    expect(families.get('irs_webhook_oldest_due_age_seconds')?.type).toBe('GAUGE');
    expect(families.get('irs_webhook_due_deliveries')?.type).toBe('GAUGE');
    expect(valueOf(families, 'irs_reports', { status: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, 'irs_rate_limit_refusals_total', { bucket: 'roomLink' })).toBe(1);
    // prom-client's default process metrics.
    expect(valueOf(families, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(families.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('GAUGE');
    if (ENGINE === 'mysql') expect(valueOf(families, 'irs_db_pool_connections', { state: 'idle' }) + valueOf(families, 'irs_db_pool_connections', { state: 'in_use' })).toBeGreaterThan(0);
  });

  it('times requests by route template and status, never by a path that holds a link', async () => {
    const requests = families.get('http_request_duration_seconds')!;
    expect(requests.type).toBe('HISTOGRAM');
    const series = requests.metrics.map((m) => `${m.labels!.method} ${m.labels!.route} ${m.labels!.status_code}`);
    expect(series).toEqual(
      expect.arrayContaining(['POST /i/:linkID/start 200', 'POST /i/:linkID/reply 200', 'POST /v1/reports/addOne 201', 'GET /v1/reports/getOne 200', 'GET /i/:linkID/session 404', 'GET /i/:linkID/session 429']),
    );
    const reply = requests.metrics.find((m) => m.labels!.route === '/i/:linkID/reply')!;
    expect(Number(reply.count)).toBe(1);
  });

  it('has no linkID, token, e-mail or answer in any label', () => {
    const labels = [...families.values()].flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    expect(labels.length).toBeGreaterThan(20);
    for (const secret of [linkID, EMAIL, 'Tangerine', 'irs_', webhookID]) expect(labels.filter((l) => l.includes(secret))).toEqual([]);
  });

  it('exports every metric the Grafana dashboard (docs/grafana-dashboard.json) queries', () => {
    const dashboard = JSON.parse(readFileSync(join(__dirname, '..', 'docs', 'grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { query?: unknown; definition?: string }[] };
    };
    // Grafana fills its variables in before Prometheus sees a query: do the same, then parse it as PromQL.
    const interpolate = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.*');
    const named = new Set<string>();
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => interpolate(t.expr)));
    // label_values(<selector>, <label>) is Grafana's; the selector inside is PromQL.
    for (const v of dashboard.templating.list) if (v.definition?.startsWith('label_values(')) exprs.push(v.definition.slice('label_values('.length, v.definition.lastIndexOf(',')));
    expect(exprs.length).toBeGreaterThan(10);
    for (const expr of exprs) {
      const tree = promql.parse(expr);
      tree.iterate({
        enter: (node) => {
          expect({ expr, error: node.type.isError }).toEqual({ expr, error: false });
          const id = node.name === 'VectorSelector' ? node.node.getChild('Identifier') : null;
          if (id) named.add(expr.slice(id.from, id.to));
        },
      });
    }
    // A histogram is exported as one family and queried by its _bucket, _sum and _count series.
    const exported = (name: string) => families.has(name) || ['_bucket', '_sum', '_count'].some((suffix) => name.endsWith(suffix) && families.get(name.slice(0, -suffix.length))?.type === 'HISTOGRAM');
    expect([...named].filter((name) => !exported(name))).toEqual([]);
    for (const wanted of ['http_request_duration_seconds_bucket', 'irs_agent_fallbacks_total', 'irs_webhook_oldest_due_age_seconds', 'irs_reports']) expect(named).toContain(wanted);
  });
});
