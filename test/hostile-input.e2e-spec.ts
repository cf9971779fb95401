import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, bearer, expectError, registeredRoutes, useTestApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';

/**
 * OWASP API3/API4/API8: malformed requests over every route. Each must get a defined 4xx in the
 * {error, message} shape, none a 5xx, none may write anything, and the process must be unchanged
 * afterwards (health, a normal request, no crash).
 */
interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string; // may carry a raw query string
  body?: string | object;
  contentType?: string | null;
  expect: number[];
}

const LONG = 'x'.repeat(5000);
const postRoutes = [
  '/v1/products/addOne',
  '/v1/products/updateOne',
  '/v1/interviews/addOne',
  '/v1/interviews/updateOne',
  '/v1/webhooks/addOne',
  '/v1/webhooks/deleteOne',
  '/v1/webhooks/redeliver',
  '/v1/reports/addOne',
  '/v1/reports/share',
  '/v1/reports/unshare',
  '/v1/invites/revokeOne',
  '/v1/interviews/deleteOne',
  '/v1/products/deleteOne',
  '/v1/participants/erase',
  '/v1/participants/export',
  '/v1/interviews/setCodebook',
  '/v1/reports/toCodebook',
  '/v1/interviews/setRecruitment',
];
/** Routes whose first field is an address: SQL metacharacters there are not one (400). */
const addressRoutes = ['/v1/participants/erase', '/v1/participants/export'];
/** Routes that create a record: SQL metacharacters in an owner are just data there. */
const createRoutes = ['/v1/products/addOne', '/v1/webhooks/addOne'];
const getRoutes: [string, string][] = [
  ['/v1/products/getOne', 'productID'],
  ['/v1/products/getList', 'orgID'],
  ['/v1/interviews/getOne', 'interviewID'],
  ['/v1/interviews/getList', 'productID'],
  ['/v1/invites/createInvites', 'interviewID'],
  ['/v1/invites/getOne', 'linkID'],
  ['/v1/invites/getList', 'interviewID'],
  ['/v1/profiles/getOne', 'profileID'],
  ['/v1/profiles/getList', 'productID'],
  ['/v1/webhooks/getOne', 'webhookID'],
  ['/v1/webhooks/getList', 'orgID'],
  ['/v1/webhooks/getDeliveries', 'webhookID'],
  ['/v1/interviews/getQuestions', 'interviewID'],
  ['/v1/interviews/getAnswers', 'interviewID'],
  ['/v1/interviews/exportAnswers', 'interviewID'],
  ['/v1/reports/getOne', 'reportID'],
  ['/v1/reports/getList', 'interviewID'],
  ['/v1/participants/getErasures', 'orgID'],
  ['/v1/interviews/getCodebook', 'interviewID'],
  ['/v1/interviews/getRecruitment', 'interviewID'],
  ['/v1/reports/getCodes', 'reportID'],
  ['/v1/invites/getAudio', 'linkID'],
];
/** What a GET route needs beside its identifier. */
const OTHER_PARAMETERS: Record<string, string> = { '/v1/invites/createInvites': '&count=1', '/v1/invites/getAudio': '&turnIndex=2' };

function cases(ids: { productID: string; interviewID: string }): Case[] {
  const out: Case[] = [];
  const validBody: Record<string, Record<string, unknown>> = {
    '/v1/products/addOne': { name: 'n', orgID: 'o' },
    '/v1/products/updateOne': { productID: ids.productID },
    '/v1/interviews/addOne': { productID: ids.productID, interviewName: 'n' },
    '/v1/interviews/updateOne': { interviewID: ids.interviewID },
    // A public address: the target check needs no DNS (no webhook is sent: nothing happens to org o).
    '/v1/webhooks/addOne': { orgID: 'o', url: 'https://93.184.215.14/hook' },
    '/v1/webhooks/deleteOne': { webhookID: 'no-such-webhook' },
    '/v1/webhooks/redeliver': { deliveryID: 'no-such-delivery' },
    '/v1/reports/addOne': { interviewID: ids.interviewID },
    '/v1/reports/share': { reportID: 'no-such-report' },
    '/v1/reports/unshare': { reportID: 'no-such-report' },
    // Unknown records: a request that got through would delete or revoke nothing (and the fingerprint would tell).
    '/v1/invites/revokeOne': { linkID: 'no-such-link' },
    '/v1/interviews/deleteOne': { interviewID: 'no-such-interview', cascade: true },
    '/v1/products/deleteOne': { productID: 'no-such-product', cascade: true },
    '/v1/participants/erase': { email: 'hostile@example.com', orgID: 'o' },
    '/v1/participants/export': { email: 'hostile@example.com', orgID: 'o' },
    // An unknown interview: a request that got through would store no codebook (and the fingerprint would tell).
    '/v1/interviews/setCodebook': { interviewID: 'no-such-interview', questions: [] },
    '/v1/reports/toCodebook': { reportID: 'no-such-report' },
    // An unknown interview: a request that got through would store no recruitment.
    '/v1/interviews/setRecruitment': { interviewID: 'no-such-interview', open: true },
  };
  const textField: Record<string, string> = {
    '/v1/products/addOne': 'name',
    '/v1/products/updateOne': 'name',
    '/v1/interviews/addOne': 'interviewName',
    '/v1/interviews/updateOne': 'interviewName',
    '/v1/webhooks/addOne': 'url',
    '/v1/webhooks/deleteOne': 'webhookID',
    '/v1/webhooks/redeliver': 'deliveryID',
    '/v1/reports/addOne': 'interviewID',
    '/v1/reports/share': 'reportID',
    '/v1/reports/unshare': 'reportID',
    '/v1/invites/revokeOne': 'linkID',
    '/v1/interviews/deleteOne': 'interviewID',
    '/v1/products/deleteOne': 'productID',
    '/v1/participants/erase': 'email',
    '/v1/participants/export': 'email',
    '/v1/interviews/setCodebook': 'interviewID',
    '/v1/reports/toCodebook': 'reportID',
  };
  for (const path of postRoutes) {
    const base = validBody[path];
    const field = textField[path];
    const post = (name: string, body: string | object, expect = [400], contentType: string | null = 'application/json') =>
      out.push({ name: `${path}: ${name}`, method: 'POST', path, body, contentType, expect });
    post('number for a string', { ...base, [field]: 12345 });
    post('boolean for a string', { ...base, [field]: true });
    post('array for a string', { ...base, [field]: ['a', 'b'] });
    post('object for a string', { ...base, [field]: { $gt: '' } });
    post('null for a required field', { ...base, [field]: null });
    post('over-long string', { ...base, [field]: LONG });
    post('NUL character', { ...base, [field]: 'a\u0000b' });
    post('lone high surrogate', `{"${Object.keys(base)[0]}":${JSON.stringify(Object.values(base)[0])},"${field}":"a\\ud800b"}`);
    post('lone low surrogate', `{"${Object.keys(base)[0]}":${JSON.stringify(Object.values(base)[0])},"${field}":"\\udc00"}`);
    post('__proto__ key', `{"__proto__":{"isAdmin":true},${JSON.stringify(base).slice(1)}`);
    post('constructor key', { ...base, constructor: { prototype: { polluted: true } } });
    post('nested __proto__', { ...base, extra: { __proto__: { x: 1 } } });
    post('unknown field', { ...base, isAdmin: true });
    post('SQL metacharacters in an identifier', { ...base, [Object.keys(base)[0]]: "' OR 1=1; DROP TABLE products; --" }, createRoutes.includes(path) ? [201, 400, 403] : addressRoutes.includes(path) ? [400] : [404]);
    post('huge number', { ...base, [field]: 1e308 });
    post('truncated JSON', '{"name": "x"');
    post('trailing comma', '{"name": "x",}');
    post('single quotes', "{'name': 'x'}");
    post('NaN literal', '{"name": NaN}');
    post('empty body', '', [400]);
    post('JSON array body', '[1,2,3]');
    post('JSON number body', '42');
    post('text/plain content type', JSON.stringify(base), [415], 'text/plain');
    post('form content type', 'name=x&orgID=o', [415], 'application/x-www-form-urlencoded');
    post('missing content type', JSON.stringify(base), [415], null);
    post('XML body', '<product><name>x</name></product>', [415], 'application/xml');
    post('body over the limit', { ...base, desc: 'y'.repeat(1_100_000) }, [413]);
    post('deeply nested JSON', `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`, [400, 413]);
  }
  for (const [path, id] of getRoutes) {
    const extra = OTHER_PARAMETERS[path] ?? '';
    const get = (name: string, query: string, expect = [400]) => out.push({ name: `${path}: ${name}`, method: 'GET', path: `${path}?${query}`, expect });
    get('repeated identifier', `${id}=a&${id}=b${extra}`);
    get('array syntax', `${id}[]=a${extra}`);
    get('object syntax', `${id}[$ne]=x${extra}`);
    get('over-long identifier', `${id}=${'a'.repeat(300)}${extra}`);
    get('NUL in identifier', `${id}=a%00b${extra}`);
    get('unknown parameter', `${id}=a${extra}&debug=true`);
    get('SQL metacharacters', `${id}=${encodeURIComponent("1' OR '1'='1")}${extra}`, [404, 200]);
    get('invalid percent-encoding', `${id}=%E0%A4%A${extra}`, [400, 404, 200]);
    get('missing identifier', extra ? extra.slice(1) : 'limit=1', [400]);
  }
  const ci = '/v1/invites/createInvites';
  for (const count of ['0', '-5', '1.5', '1e3', '0x10', 'Infinity', 'NaN', '99999999999999999999', ' 1', '']) {
    out.push({ name: `${ci}: count=${JSON.stringify(count)}`, method: 'GET', path: `${ci}?interviewID=${ids.interviewID}&count=${encodeURIComponent(count)}`, expect: [400] });
  }
  const answers = '/v1/interviews/getAnswers';
  for (const index of ['-1', '1.5', 'abc', '1e3', '99999999999']) {
    out.push({ name: `${answers}: questionIndex=${index}`, method: 'GET', path: `${answers}?interviewID=${ids.interviewID}&questionIndex=${index}`, expect: [400] });
  }
  const audio = '/v1/invites/getAudio';
  for (const index of ['-1', '1.5', 'abc', '1e3', '99999999999', '']) {
    out.push({ name: `${audio}: turnIndex=${index}`, method: 'GET', path: `${audio}?linkID=no-such-link&turnIndex=${index}`, expect: [400] });
  }
  // An interview's fieldwork settings: a supported language only, an https redirect only, each 400 and nothing written.
  const fieldwork = (name: string, fields: object) =>
    out.push({ name: `/v1/interviews/updateOne: ${name}`, method: 'POST', path: '/v1/interviews/updateOne', body: { interviewID: ids.interviewID, ...fields }, contentType: 'application/json', expect: [400] });
  fieldwork('language not supported', { language: 'xx-YY' });
  fieldwork('language as an object', { language: { $ne: 'en' } });
  fieldwork('language over-long', { language: 'a'.repeat(300) });
  fieldwork('language with NUL', { language: 'e\u0000n' });
  fieldwork('redirect over http', { completionRedirectUrl: 'http://panel.example/done' });
  fieldwork('redirect to javascript:', { completionRedirectUrl: 'javascript:alert(document.cookie)' });
  fieldwork('redirect to data:', { completionRedirectUrl: 'data:text/html,<script>alert(1)</script>' });
  fieldwork('redirect to a relative path', { completionRedirectUrl: '//panel.example/done' });
  fieldwork('redirect with white space', { completionRedirectUrl: 'https://panel.example/do ne' });
  fieldwork('redirect over-long', { completionRedirectUrl: `https://panel.example/${'a'.repeat(2100)}` });
  fieldwork('public title over-long', { publicTitle: 'x'.repeat(201) });
  fieldwork('consent text over-long', { consentText: 'x'.repeat(4001) });
  fieldwork('consent text with a lone surrogate', { consentText: 'a\ud800b' });
  const exportPath = '/v1/interviews/exportAnswers';
  for (const format of ['xlsx', 'CSV', '', 'csv,jsonl']) {
    out.push({ name: `${exportPath}: format=${format}`, method: 'GET', path: `${exportPath}?interviewID=${ids.interviewID}&format=${encodeURIComponent(format)}`, expect: [400] });
  }
  out.push({ name: `${exportPath}: repeated format`, method: 'GET', path: `${exportPath}?interviewID=${ids.interviewID}&format=csv&format=jsonl`, expect: [400] });
  out.push({ name: `${exportPath}: repeated reportID`, method: 'GET', path: `${exportPath}?interviewID=${ids.interviewID}&reportID=a&reportID=b`, expect: [400] });
  out.push({ name: `${exportPath}: reportID of no report`, method: 'GET', path: `${exportPath}?interviewID=${ids.interviewID}&reportID=${encodeURIComponent("1' OR '1'='1")}`, expect: [404] });
  // A codebook's nested shapes, each 400 and nothing written (the interview is real: a codebook that got through would be stored).
  const codebook = (name: string, questions: unknown) =>
    out.push({ name: `/v1/interviews/setCodebook: ${name}`, method: 'POST', path: '/v1/interviews/setCodebook', body: { interviewID: ids.interviewID, questions }, contentType: 'application/json', expect: [400] });
  codebook('questions as an object', { $ne: 1 });
  codebook('a question as a string', ['q']);
  codebook('themes as a string', [{ questionIndex: 0, themes: 'x' }]);
  codebook('a theme as null', [{ questionIndex: 0, themes: [null] }]);
  codebook('a label as an object', [{ questionIndex: 0, themes: [{ theme: { $gt: '' } }] }]);
  codebook('a label with NUL', [{ questionIndex: 0, themes: [{ theme: 'a\u0000b' }] }]);
  codebook('a label with a lone surrogate', [{ questionIndex: 0, themes: [{ theme: 'a\ud800b' }] }]);
  codebook('a label over-long', [{ questionIndex: 0, themes: [{ theme: LONG }] }]);
  codebook('examples as a string', [{ questionIndex: 0, themes: [{ theme: 'x', examples: 'e' }] }]);
  codebook('an example as a number', [{ questionIndex: 0, themes: [{ theme: 'x', examples: [1] }] }]);
  codebook('an unknown question', [{ questionIndex: 99_999, themes: [{ theme: 'x' }] }]);
  codebook('a negative question', [{ questionIndex: -1, themes: [{ theme: 'x' }] }]);
  codebook('an unknown field in a theme', [{ questionIndex: 0, themes: [{ theme: 'x', isAdmin: true }] }]);
  codebook('__proto__ in a theme', [{ questionIndex: 0, themes: [JSON.parse('{"theme":"x","__proto__":{"polluted":true}}')] }]);
  const codes = '/v1/reports/getCodes';
  for (const themeID of ['q0-t', 'Q0-T1', 'q0-t1%', "q0-t1' OR 1=1", 'x'.repeat(300), 'q-1-t1']) {
    out.push({ name: `${codes}: themeID=${themeID.slice(0, 20)}`, method: 'GET', path: `${codes}?reportID=no-such-report&themeID=${encodeURIComponent(themeID)}`, expect: [400] });
  }
  return out;
}

/** Routes that take no input a client could get wrong but the query keys tried on every route's neighbours. */
const NO_INPUT_ROUTES = ['GET /v1/interviewers/getList', 'GET /v1/interviewers/getModes', 'GET /v1/languages/getList'];

/** Writes bytes to a fresh connection and reads until the server closes it (or 5 s pass). */
function rawExchange(server: Server, bytes: string): Promise<{ text: string; closed: boolean }> {
  if (!server.listening) server.listen(0, '127.0.0.1');
  return new Promise((ok, fail) => {
    const whenListening = () => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        socket.destroy();
        ok({ text: Buffer.concat(chunks).toString('latin1'), closed: false });
      }, 5000);
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', fail);
      socket.on('close', () => {
        clearTimeout(timer);
        ok({ text: Buffer.concat(chunks).toString('latin1'), closed: true });
      });
      socket.write(bytes, 'latin1');
    };
    if (server.listening) whenListening();
    else server.once('listening', whenListening);
  });
}

describe('Hostile input (OWASP API3, API4, API8)', () => {
  let t: TestApp;
  let admin: string;
  let table: Case[];
  useTestApp(async (app) => {
    ({ t, admin } = app);
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const interviewID = await makeInterview(t, admin, productID);
    table = cases({ productID, interviewID });
  });

  it('covers every /v1 route the app registers (a new route needs cases of its own)', () => {
    const covered = new Set(table.map((c) => `${c.method} ${c.path.split('?')[0]}`));
    const uncovered = registeredRoutes(t).filter((route) => !covered.has(route) && !NO_INPUT_ROUTES.includes(route));
    expect(uncovered).toEqual([]);
    process.stdout.write(`hostile requests tried: ${table.length}\n`);
  });

  it('answers each with a defined 4xx in the error shape, never a 5xx, and writes nothing', async () => {
    const failures: string[] = [];
    for (const c of table) {
      const before = await dbFingerprint(t.db);
      let req = c.method === 'POST' ? t.http.post(c.path) : t.http.get(c.path);
      req = req.set(bearer(admin));
      if (c.method === 'POST') {
        if (c.contentType) req = req.set('Content-Type', c.contentType);
        else req = req.unset('Content-Type');
        req = req.send(typeof c.body === 'string' ? c.body : JSON.stringify(c.body));
      }
      const res = await req;
      const shapeOk = res.status < 300 || (res.body && res.body.error === res.status && typeof res.body.message === 'string' && Object.keys(res.body).length === 2);
      const wrote = c.expect.some((s) => s < 300) ? false : (await dbFingerprint(t.db)) !== before;
      if (!c.expect.includes(res.status) || res.status >= 500 || !shapeOk || wrote) {
        failures.push(`${c.name}: got ${res.status} ${JSON.stringify(res.body).slice(0, 160)}${wrote ? ' (wrote!)' : ''}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('is unchanged afterwards: healthy and serving normal requests', async () => {
    await t.http.get('/health').expect(200);
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const res = await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.result.productID).toBe(productID);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each([
    ['bytes that are no HTTP at all', '\x00\x01\x02 garbage\r\n\r\n'],
    ['a header line without a colon', 'GET /v1/products/getOne HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
    ['an HTTP version that does not exist', 'GET /v1/products/getOne HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['a Content-Length that is no number', 'POST /v1/products/addOne HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}'],
  ])('answers %s on a raw socket with 400 and closes the connection; the server goes on serving', async (_case, garbage) => {
    const reply = await rawExchange(t.app.getHttpServer() as Server, garbage);
    expect(reply.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply.closed).toBe(true);
    await t.http.get('/health').expect(200);
  });

  it('answers a lone percent sign in a query as data (404 in the error shape), never 500', async () => {
    const res = await request(t.app.getHttpServer()).get('/v1/products/getOne?productID=%').set(bearer(admin));
    expectError(res, 404, /product "%" not found/);
  });
});
