import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE } from '../src/config/engine';
import { adminToken, bearer, startApp, uniq } from './helpers/app';
import { BuiltServer } from './helpers/built-server';
import { makeInterview, makeProduct } from './helpers/factories';
import { waitFor } from './helpers/wait';

jest.setTimeout(90_000);

/**
 * A report outlives the instance running it: the service as production runs it (a built server, in its
 * own process) starts a report whose model never answers, and is killed (SIGKILL) in the middle of it;
 * another instance on the same database takes the report over once its lease has run out, and makes it.
 */
describe(`A report taken over after its instance died (${ENGINE})`, () => {
  let dir: string;
  let url: string;
  let model: Server;
  let answering = false;
  const held: ServerResponse[] = [];
  let requests = 0;
  let token: string;
  let interviewID: string;

  /** The stand-in model: holds every request until `answering`, then proposes one theme and codes all of a question's answers with it. */
  function serveModel(req: IncomingMessage, res: ServerResponse): void {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests++;
      if (!answering) {
        held.push(res);
        return;
      }
      const body = JSON.parse(raw) as { response_format: { json_schema: { name: string } }; messages: { content: string }[] };
      const user = body.messages.at(-1)!.content;
      const ids = user
        .split('\n')
        .filter((line) => line.startsWith('{"id":"a'))
        .map((line) => (JSON.parse(line) as { id: string }).id);
      const kind = body.response_format.json_schema.name;
      const content =
        kind === 'propose_themes'
          ? { themes: [{ theme: 'Taken over', description: 'Coded by the second instance.' }] }
          : kind === 'code_answers'
            ? { codes: ids.map((answer) => ({ answer, themes: ['T1'] })), quotes: [] }
            : { themes: [] };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' }] }));
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'irs-takeover-'));
    url = ENGINE === 'mysql' ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'takeover.sqlite')}`;
    model = createServer(serveModel);
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    // The study, made through an app of the test's own that is closed before the report is queued
    // (its worker must not be the one to take the report).
    const t = await startApp({ DATABASE_URL: url, REPORT_POLL_SECONDS: '60' });
    try {
      token = await adminToken(t);
      const productID = await makeProduct(t, token, { orgID: uniq('org'), name: 'Acme Notes' });
      interviewID = await makeInterview(t, token, productID, { guidelines: '1. What do you use Acme Notes for?' });
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 3 }).set(bearer(token));
      // Each says it in words of their own: the same answer of eight words from two invites is flagged (duplicate_answer) and left out of reports.
      const teams = ['design', 'sales', 'support'];
      for (const [i, link] of (res.body.result as string[]).map((u) => new URL(u).pathname.split('/').pop()!).entries()) {
        await t.http.post(`/i/${link}/start`).send({ name: 'Ada Lovelace', email: `${uniq('ada')}@example.com`, consent: true }).expect(200);
        await t.http.post(`/i/${link}/reply`).send({ content: `Meeting notes for the ${teams[i]} team, every single week without fail.` }).expect(200);
        await t.http.post(`/i/${link}/reply`).send({ content: 'No, that is everything from me today.' }).expect(200);
      }
    } finally {
      await t.close();
    }
  });

  afterAll(async () => {
    for (const res of held) res.destroy();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is claimed by one instance, left running when it dies, and made by the next one after the lease', async () => {
    const env = {
      DATABASE_URL: url,
      INTERVIEWER_AGENTS: JSON.stringify({ analyst: { kind: 'openai', baseUrl: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, model: 'm', timeoutMs: 60_000 } }),
      REPORT_LEASE_SECONDS: '2',
      REPORT_POLL_SECONDS: '1',
      RATE_LIMIT_MAX: '1000000',
    };
    const api = (server: BuiltServer, path: string, init: RequestInit = {}) =>
      fetch(`${server.base}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } });

    const first = await BuiltServer.start(dir, env);
    let reportID: string;
    try {
      const queued = await api(first, '/v1/reports/addOne', { method: 'POST', body: JSON.stringify({ interviewID, analyst: 'analyst' }) });
      expect(queued.status).toBe(201);
      reportID = ((await queued.json()) as { result: { reportID: string } }).result.reportID;
      // The first instance is in the middle of the report: waiting for the model.
      await waitFor('the first model request', async () => (requests > 0 ? true : undefined), 20_000);
      const running = (await (await api(first, `/v1/reports/getOne?reportID=${reportID}`)).json()) as { result: { status: string } };
      expect(running.result.status).toBe('running');
    } finally {
      await first.kill('SIGKILL');
    }

    answering = true;
    const second = await BuiltServer.start(dir, env);
    try {
      const done = await waitFor(
        'the report made by the second instance',
        async () => {
          const r = ((await (await api(second, `/v1/reports/getOne?reportID=${reportID}`)).json()) as { result: { status: string; result: { questions: { themes: { theme: string; answers: number }[] }[] } } }).result;
          return r.status === 'completed' || r.status === 'failed' ? r : undefined;
        },
        30_000,
      );
      expect(done.status).toBe('completed');
      expect(done.result.questions[0].themes).toEqual([expect.objectContaining({ theme: 'Taken over', answers: 3 })]);
      expect(requests).toBeGreaterThan(1);
    } finally {
      await second.kill('SIGTERM');
    }
  });
});
