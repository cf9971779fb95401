import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltServer } from './helpers/built-server';
import { WebhookReceiver } from './helpers/webhook-receiver';

const GUIDELINES = 'What do you use it for?\nWhat would you change about it?';
const ANSWERS = [
  'I plan the delivery routes of our whole team with it every morning before we leave.',
  'I would like the maps to load faster when the signal on the road is weak.',
  'No, that is everything I wanted to say about it today, thank you.',
];

interface LogLine {
  level: string;
  msg?: string;
  requestId?: string;
  context?: string;
  [key: string]: unknown;
}

/**
 * The embedded database's one connection under everything at once: interviewees answering (each answer
 * a transaction that writes webhook events), the webhook relay sending and recording them, the report
 * worker claiming and finishing reports, and plain writes. Seen before the fix: the relay, woken from
 * inside a request's committing transaction, ran its own transaction outside the queue and logged
 * "SqliteError: no such savepoint: typeorm_1"; its log lines and the report worker's carried the
 * request's id. The server is the built one, on its own embedded database, whatever the run's engine.
 */
describe('Background work and requests at once on the embedded database', () => {
  let dir: string;
  let server: BuiltServer | undefined;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'irs-concurrency-'));
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await server?.kill();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no write, logs no transaction error, and gives background log lines no request id', async () => {
    server = await BuiltServer.start(dir, {
      DATABASE_URL: `sqlite:${join(dir, 'busy.sqlite')}`,
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_LOCAL: 'true',
      REPORT_POLL_SECONDS: '1',
      RATE_LIMIT_MAX: '1000000',
      ROOM_RATE_LIMIT_MAX: '1000000',
      ROOM_LINK_RATE_LIMIT_MAX: '1000000',
    });
    const token = await server.firstRunToken();
    let requests = 0;
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown, auth = true) => {
      const res = await fetch(`${server!.base}${path}`, {
        method,
        headers: { ...(auth ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json', 'X-Request-Id': `busy-${++requests}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { result: any } };
    };

    const orgID = 'org_busy';
    const { productID } = (await call('POST', '/v1/products/addOne', { name: 'Busy Maps', orgID })).body.result;
    const { interviewID } = (await call('POST', '/v1/interviews/addOne', { productID, interviewName: 'Busy', guidelines: GUIDELINES })).body.result;
    const hook = (await call('POST', '/v1/webhooks/addOne', { url: receiver.url('/busy'), orgID, events: ['invite.started', 'invite.completed'] })).body.result;
    receiver.register('/busy', hook.secret);
    const people = 24;
    const links = ((await call('GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=${people}`)).body.result as string[]).map((u) => u.split('/').pop()!);

    const interview = async (linkID: string, n: number) => {
      expect((await call('POST', `/i/${linkID}/start`, { name: `Person ${n}`, email: `p${n}@example.com`, consent: true }, false)).status).toBe(200);
      let status = 'started';
      for (const content of ANSWERS) {
        const res = await call('POST', `/i/${linkID}/reply`, { content }, false);
        expect(res.status).toBe(200);
        status = res.body.result.status;
      }
      return status;
    };
    const reportIDs: string[] = [];
    const reports = async () => {
      for (let i = 0; i < 4; i++) {
        const res = await call('POST', '/v1/reports/addOne', { interviewID });
        expect(res.status).toBe(201);
        reportIDs.push(res.body.result.reportID);
      }
    };
    const productIDs: string[] = [];
    const writes = async () => {
      for (let i = 0; i < 30; i++) {
        const res = await call('POST', '/v1/products/addOne', { name: `Written ${i}`, orgID });
        expect(res.status).toBe(201);
        productIDs.push(res.body.result.productID);
      }
    };
    const [statuses] = await Promise.all([Promise.all(links.map((linkID, n) => interview(linkID, n))), reports(), writes()]);
    expect(statuses).toEqual(links.map(() => 'completed'));

    // Every event of every interview reaches the endpoint, and every report finishes.
    await receiver.waitFor('/busy', people * 2, 60_000);
    await server.waitFor(
      'every report finished',
      () => (lines().filter((l) => l.msg === 'report finished').length >= reportIDs.length ? true : undefined),
      60_000,
    );
    for (const reportID of reportIDs) expect((await call('GET', `/v1/reports/getOne?reportID=${reportID}`)).body.result.status).toBe('completed');
    for (const id of productIDs) expect((await call('GET', `/v1/products/getOne?productID=${id}`)).status).toBe(200);
    const invites = (await call('GET', `/v1/invites/getList?interviewID=${interviewID}`)).body.result as { status: string; conversation: unknown[] }[];
    expect(invites.map((i) => i.status)).toEqual(links.map(() => 'completed'));
    expect(invites.every((i) => i.conversation.length === 2 + ANSWERS.length * 2)).toBe(true);
    const received = receiver.at('/busy').map((r) => r.payload.type);
    expect(received.filter((t) => t === 'invite.started')).toHaveLength(people);
    expect(received.filter((t) => t === 'invite.completed')).toHaveLength(people);

    const all = lines();
    expect(all.filter((l) => /savepoint|SqliteError|transaction/i.test(JSON.stringify(l)) && l.level !== 'info')).toEqual([]);
    expect(all.filter((l) => (l.level === 'error' || l.level === 'warn') && !String(l.msg).startsWith('WEBHOOK_ALLOW_LOCAL is on'))).toEqual([]);
    // What the worker and the relay log is their own: no request's id travels into it.
    const background = all.filter((l) => l.msg === 'report finished' || l.context === 'WebhookRelay' || l.context === 'ReportWorker');
    expect(background.length).toBeGreaterThanOrEqual(reportIDs.length);
    expect(background.filter((l) => l.requestId !== undefined)).toEqual([]);
  }, 180_000);

  function lines(): LogLine[] {
    return server!.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
  }
});
