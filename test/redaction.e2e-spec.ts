import { mkdtempSync, rmSync } from 'node:fs';
import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { BuiltServer } from './helpers/built-server';
import { makeInterview, makeProduct } from './helpers/factories';
import { allTables } from './helpers/table-text';

/** One of each kind the redaction promises to catch, and what each becomes. */
const IDENTIFIERS: [string, string][] = [
  ['zoe.quill@example.net', '[email]'],
  ['+44 20 7946 0958', '[phone]'],
  ['(415) 555-2671', '[phone]'],
  ['4111 1111 1111 1111', '[card]'],
  ['GB82 WEST 1234 5698 7654 32', '[iban]'],
  ['203.0.113.77', '[ip]'],
  ['2001:db8::8a2e:370:7334', '[ip]'],
];
const ANSWER = `You can reach me at ${IDENTIFIERS[0][0]} or ${IDENTIFIERS[1][0]}, office ${IDENTIFIERS[2][0]}; I paid with ${IDENTIFIERS[3][0]} from ${IDENTIFIERS[4][0]} and log in from ${IDENTIFIERS[5][0]} or ${IDENTIFIERS[6][0]} every day.`;
const REDACTED_ANSWER = 'You can reach me at [email] or [phone], office [phone]; I paid with [card] from [iban] and log in from [ip] or [ip] every day.';
/** What would find each original however it is written down (the card and IBAN also without their spaces). */
const NEEDLES = ['zoe.quill', '7946 0958', '555-2671', '4111 1111', '4111111111111111', 'WEST 1234', 'GB82WEST', '203.0.113.77', '2001:db8::8a2e'];

/** A stand-in chat-completions server that keeps every request it gets and always asks one more question. */
async function standInModel(): Promise<{ server: Server; url: string; prompts: string[] }> {
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      prompts.push(body);
      const content = JSON.stringify({ message: 'Thank you. What else would you like to tell us?', done: false });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, prompts };
}

const agents = (baseUrl: string) => JSON.stringify({ 'stand-in': { kind: 'openai', baseUrl, model: 'stand-in-model' } });

describe('redactPII: identifiers leave an answer before it is stored, logged or sent to an agent', () => {
  let model: Awaited<ReturnType<typeof standInModel>>;
  beforeAll(async () => {
    model = await standInModel();
  });
  afterAll(async () => {
    await new Promise((resolve) => model.server.close(resolve));
  });

  describe('in the database and the model\'s prompts', () => {
    let t: TestApp;
    let admin: string;
    beforeAll(async () => {
      t = await startApp({ INTERVIEWER_AGENTS: agents(model.url) });
      admin = await adminToken(t);
    });
    afterAll(() => t.close());

    it('stores, shows and sends only the redacted answer; an interview without redactPII keeps answers as they are', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      const interviewID = await makeInterview(t, admin, productID, { redactPII: true });
      await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, interviewer: 'stand-in' }).expect(200);
      const [url] = (await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin))).body.result as string[];
      const linkID = new URL(url).pathname.split('/').pop()!;
      await t.http.post(`/i/${linkID}/start`).send({ name: 'Zoe Quill', email: 'zq@example.org', consent: true }).expect(200);
      model.prompts.length = 0;

      const reply = await t.http.post(`/i/${linkID}/reply`).send({ content: ANSWER });
      expect(reply.status).toBe(200);
      // The room shows the stored text.
      expect(reply.body.result.turns[0]).toEqual({ role: 'interviewee', content: REDACTED_ANSWER });
      const invite = (await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin))).body.result;
      expect(invite.conversation.filter((turn: { role: string }) => turn.role === 'interviewee')).toEqual([{ role: 'interviewee', content: REDACTED_ANSWER }]);
      expect(model.prompts.length).toBeGreaterThan(0);
      expect(model.prompts.join('\n')).toContain('[card]');

      const found: string[] = [];
      for (const table of await allTables(t.db)) {
        const text = JSON.stringify(await t.db.query(`SELECT * FROM ${table}`));
        for (const needle of NEEDLES) if (text.includes(needle)) found.push(`${table}: ${needle}`);
      }
      expect(found).toEqual([]);
      expect(NEEDLES.filter((needle) => model.prompts.some((p) => p.includes(needle)))).toEqual([]);

      // Without redactPII the same answer is kept as written.
      const plain = await makeInterview(t, admin, productID);
      const [plainUrl] = (await t.http.get('/v1/invites/createInvites').query({ interviewID: plain, count: 1 }).set(bearer(admin))).body.result as string[];
      const plainLink = new URL(plainUrl).pathname.split('/').pop()!;
      await t.http.post(`/i/${plainLink}/start`).send({ name: 'Zoe Quill', email: 'zq@example.org', consent: true }).expect(200);
      expect((await t.http.post(`/i/${plainLink}/reply`).send({ content: ANSWER })).body.result.turns[0].content).toBe(ANSWER);
      // The answer's and the address's digests first: the foreign keys keep an invite with digests from going alone.
      await t.db.query('DELETE FROM invite_answer_digests WHERE link_id = ?', [plainLink]);
      await t.db.query('DELETE FROM invite_email_digests WHERE link_id = ?', [plainLink]);
      await t.db.query('DELETE FROM invites WHERE link_id = ?', [plainLink]);
    });
  });

  describe('in the logs (the built server at debug level, its stdout)', () => {
    jest.setTimeout(120_000);
    let dir: string;
    let server: BuiltServer | undefined;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'irs-redact-'));
    });
    afterAll(async () => {
      await server?.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    it('never writes an original to the log', async () => {
      server = await BuiltServer.start(dir, { DATABASE_URL: `sqlite:${join(dir, 'redact.sqlite')}`, LOG_LEVEL: 'debug', LOG_FORMAT: 'json', INTERVIEWER_AGENTS: agents(model.url) });
      const token = await server.firstRunToken();
      const api = async (method: 'GET' | 'POST', path: string, body?: unknown) =>
        (await (
          await fetch(`${server!.base}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
        ).json()) as { result: any };
      const { productID } = (await api('POST', '/v1/products/addOne', { name: 'Redacted', orgID: 'org_redact' })).result;
      const { interviewID } = (await api('POST', '/v1/interviews/addOne', { productID, interviewName: 'Redacted', redactPII: true })).result;
      await api('POST', '/v1/interviews/updateOne', { interviewID, interviewer: 'stand-in' });
      const [url] = (await api('GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=1`)).result as string[];
      const room = (path: string, body: unknown) => fetch(`${url}${path}`.replace(/^https?:\/\/[^/]+/, server!.base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect((await room('/start', { name: 'Zoe Quill', email: 'zq@example.org', consent: true })).status).toBe(200);
      const reply = await room('/reply', { content: ANSWER });
      expect(((await reply.json()) as { result: { turns: { content: string }[] } }).result.turns[0].content).toBe(REDACTED_ANSWER);
      // The request line of the reply is the last one written: once it is there, everything before it is too.
      await server.waitFor('the reply\'s request line', () => (server!.output.includes('/i/:linkID/reply') ? true : undefined), 10_000);
      expect(NEEDLES.filter((needle) => server!.output.includes(needle) || server!.stderr.join('').includes(needle))).toEqual([]);
    });
  });
});
