import { ENGINE } from '../src/config/engine';
import { TestApp, useTestApp, bearer, expectError, scopedToken, startApp, uniq } from './helpers/app';
import { makeProduct } from './helpers/factories';

describe('Authentication, envelope and platform routes', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  describe('bearer tokens', () => {
    const routes: [string, string][] = [
      ['post', '/v1/products/addOne'],
      ['post', '/v1/products/updateOne'],
      ['get', '/v1/products/getOne?productID=x'],
      ['get', '/v1/products/getList?orgID=x'],
      ['post', '/v1/interviews/addOne'],
      ['post', '/v1/interviews/updateOne'],
      ['get', '/v1/interviews/getOne?interviewID=x'],
      ['get', '/v1/interviews/getList?productID=x'],
      ['get', '/v1/invites/createInvites?interviewID=x&count=1'],
      ['get', '/v1/invites/getOne?linkID=x'],
      ['get', '/v1/invites/getList?interviewID=x'],
      ['get', '/v1/profiles/getOne?profileID=x'],
      ['get', '/v1/profiles/getList?productID=x'],
      ['get', '/v1/interviewers/getList'],
      ['post', '/v1/webhooks/addOne'],
      ['get', '/v1/webhooks/getOne?webhookID=x'],
      ['get', '/v1/webhooks/getList?orgID=x'],
      ['post', '/v1/webhooks/deleteOne'],
      ['get', '/v1/webhooks/getDeliveries?webhookID=x'],
      ['post', '/v1/webhooks/redeliver'],
    ];

    it.each(routes)('%s %s answers 401 with WWW-Authenticate without a token', async (method, path) => {
      const req = method === 'post' ? t.http.post(path).send({}) : t.http.get(path);
      const res = await req;
      expectError(res, 401, /missing Authorization/);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it.each([
      ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz', /malformed/],
      ['Bearer without a token', 'Bearer', /malformed/],
      ['two tokens', 'Bearer a b', /malformed/],
      ['a token without the irs_ prefix', 'Bearer abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK', /invalid or revoked/],
      ['an unknown irs_ token', 'Bearer irs_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', /invalid or revoked/],
    ])('refuses %s with 401', async (_case, header, message) => {
      const res = await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set('Authorization', header);
      expectError(res, 401, message);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('stops accepting a revoked token', async () => {
      const { id, token } = await t.tokens.create({ orgID: uniq('org') });
      await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(token)).expect(200);
      await t.tokens.revoke(id);
      expectError(await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(token)), 401, /revoked/);
    });

    it('stores tokens only as SHA-256 hashes', async () => {
      const { id, token } = await t.tokens.create({ orgID: uniq('org') });
      const rows: { token_hash: string }[] = await t.db.query('SELECT token_hash FROM api_tokens WHERE id = ?', [id]);
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0].token_hash).not.toContain(token.slice(4));
    });

    it('accepts the scheme name case-insensitively', async () => {
      await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set('Authorization', `bearer ${admin}`).expect(200);
    });
  });

  describe('envelope and headers', () => {
    it('echoes a sane X-Request-Id and generates one otherwise', async () => {
      const echoed = await t.http.get('/health').set('X-Request-Id', 'trace-123');
      expect(echoed.headers['x-request-id']).toBe('trace-123');
      const generated = await t.http.get('/health').set('X-Request-Id', 'bad id with spaces');
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('sets security headers and no X-Powered-By', async () => {
      const res = await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(admin));
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('sets the same security headers on the Swagger UI and its document', async () => {
      // The docs' routes are Express's own, registered before any Nest middleware: helmet must come first.
      for (const path of ['/docs', '/docs/swagger-ui-init.js', '/docs-json']) {
        const res = await t.http.get(path);
        expect([path, res.status]).toEqual([path, 200]);
        expect([path, res.headers['x-content-type-options']]).toEqual([path, 'nosniff']);
        expect([path, res.headers['content-security-policy']]).toEqual([path, expect.stringMatching(/^default-src 'self';.*script-src 'self';/)]);
      }
    });

    it('carries rate-limit headers on authenticated responses', async () => {
      const res = await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(admin));
      expect(Number(res.headers['ratelimit-limit'])).toBeGreaterThan(0);
      expect(Number(res.headers['ratelimit-remaining'])).toBeLessThan(Number(res.headers['ratelimit-limit']));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    });

    it('carries rate-limit headers on refusals before authentication too (401, 415)', async () => {
      const unauthenticated = await t.http.get('/v1/products/getList').query({ orgID: 'x' });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers['ratelimit-limit']).toMatch(/^\d+$/);
      const wrongType = await t.http.post('/v1/products/addOne').set(bearer(admin)).set('Content-Type', 'text/plain').send('x');
      expect(wrongType.status).toBe(415);
      expect(wrongType.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    });

    it('answers unknown routes with 404 in the error shape', async () => {
      const unknown = await t.http.get('/v1/nothing/here').set(bearer(admin));
      expectError(unknown, 404);
      // The pipeline (request id, security headers, rate limit) runs for every path, a route or not.
      expect(unknown.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(unknown.headers['x-content-type-options']).toBe('nosniff');
      expect(unknown.headers['ratelimit-limit']).toMatch(/^\d+$/);
      expectError(await t.http.delete('/v1/products/getOne').set(bearer(admin)), 404);
    });
  });

  describe('GET /health', () => {
    it('answers 200 without a token while the database is reachable', async () => {
      const res = await t.http.get('/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { status: 'ok', database: 'up' } });
    });

    it('has /health/ready (the same answer) and /health/live beside it for orchestrators', async () => {
      expect((await t.http.get('/health/ready')).body).toEqual({ result: { status: 'ok', database: 'up' } });
      expect((await t.http.get('/health/live')).body).toEqual({ result: { status: 'ok' } });
    });

    // On MySQL/MariaDB the fault suite (db-fault.e2e-spec.ts) kills and restarts a server of its own. The
    // embedded database lives in the process: what can fail there is its connection.
    (ENGINE === 'sqlite' ? it : it.skip)('answers 503 while the embedded database connection is closed, and 200 once it is open again', async () => {
      await t.db.destroy();
      try {
        const res = await t.http.get('/health');
        expectError(res, 503, /database unavailable/);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expectError(await t.http.get('/health/ready'), 503, /database unavailable/);
        // Not a reason to restart the process: it still answers.
        await t.http.get('/health/live').expect(200);
      } finally {
        await t.db.initialize();
      }
      await t.http.get('/health').expect(200);
      await t.http.get('/health/ready').expect(200);
    });
  });

  describe('Swagger', () => {
    it('serves Swagger UI at /docs without a token', async () => {
      const res = await t.http.get('/docs/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('swagger-ui');
    });

    it('documents every route with parameters, result and error schemas, and bearer auth', async () => {
      /** Downloads: the file itself, of the types it can be. */
      const DOWNLOADS: Record<string, string[]> = {
        '/v1/interviews/exportAnswers': ['text/csv', 'application/x-ndjson'],
        '/v1/invites/getAudio': ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'audio/wav'],
      };
      const res = await t.http.get('/docs-json');
      expect(res.status).toBe(200);
      const doc = res.body;
      const v1 = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/'));
      expect(v1.sort()).toEqual(
        [
          '/v1/products/addOne',
          '/v1/products/updateOne',
          '/v1/products/getOne',
          '/v1/products/getList',
          '/v1/interviews/addOne',
          '/v1/interviews/updateOne',
          '/v1/interviews/getOne',
          '/v1/interviews/getList',
          '/v1/interviews/getQuestions',
          '/v1/interviews/getRecruitment',
          '/v1/interviews/getAnswers',
          '/v1/interviews/exportAnswers',
          '/v1/invites/createInvites',
          '/v1/invites/getOne',
          '/v1/invites/getList',
          '/v1/profiles/getOne',
          '/v1/profiles/getList',
          '/v1/interviewers/getList',
          '/v1/interviewers/getModes',
          '/v1/invites/getAudio',
          '/v1/languages/getList',
          '/v1/reports/addOne',
          '/v1/reports/getOne',
          '/v1/reports/getList',
          '/v1/reports/share',
          '/v1/reports/unshare',
          '/v1/reports/getCodes',
          '/v1/reports/toCodebook',
          '/v1/interviews/setCodebook',
          '/v1/interviews/getCodebook',
          '/v1/interviews/setRecruitment',
          '/v1/webhooks/addOne',
          '/v1/webhooks/getOne',
          '/v1/webhooks/getList',
          '/v1/webhooks/deleteOne',
          '/v1/webhooks/getDeliveries',
          '/v1/webhooks/redeliver',
          '/v1/invites/revokeOne',
          '/v1/interviews/deleteOne',
          '/v1/products/deleteOne',
          '/v1/participants/erase',
          '/v1/participants/export',
          '/v1/participants/getErasures',
        ].sort(),
      );
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.components.schemas.ErrorResponseDto.properties).toMatchObject({ error: { type: 'integer' }, message: { type: 'string' } });
      for (const path of v1) {
        for (const [method, op] of Object.entries<Record<string, any>>(doc.paths[path])) {
          const where = `${method.toUpperCase()} ${path}`;
          const success = method === 'post' && path.endsWith('/addOne') ? '201' : '200';
          expect({ where, success: Object.keys(op.responses).includes(success) }).toEqual({ where, success: true });
          // A download is the file itself; every other success is {result}.
          const expected = DOWNLOADS[path] ?? ['application/json'];
          expect({ where, types: Object.keys(op.responses[success].content) }).toEqual({ where, types: expected });
          if (!DOWNLOADS[path]) {
            expect({ where, result: op.responses[success].content['application/json'].schema.properties.result !== undefined }).toEqual({ where, result: true });
          }
          for (const status of ['400', '401', '429', '503']) {
            expect({ where, status, ref: op.responses[status]?.content['application/json'].schema.$ref }).toEqual({
              where,
              status,
              ref: '#/components/schemas/ErrorResponseDto',
            });
          }
          expect({ where, security: op.security ?? doc.security }).toEqual({ where, security: [{ bearer: [] }] });
        }
      }
      expect(doc.paths['/health'].get.security).toEqual([]);
      expect(doc.paths['/v1/products/getOne'].get.parameters).toEqual([
        expect.objectContaining({ name: 'productID', in: 'query', required: true }),
      ]);
      expect(doc.components.schemas.CreateProductDto.required).toEqual(['name']);
      expect(doc.components.schemas.CreateProductDto.properties.name.example).toBe('Acme Notes');
    });
  });

  describe('scoped tokens see through products', () => {
    it('gives a token of the product\'s organization access and others a 404', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID });
      const mine = await scopedToken(t, { orgID });
      await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(mine)).expect(200);
      expectError(await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(await scopedToken(t, { userID: uniq('u') }))), 404);
    });
  });
});

describe('Rate limiting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });

  afterAll(() => t.close());

  it('answers 429 with Retry-After once a token exceeds its limit, and counts tokens separately', async () => {
    const token = await scopedToken(t, { orgID: uniq('org') });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(token));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expectError(last!, 429, /rate limit/);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.headers['ratelimit-remaining']).toBe('0');
    const other = await scopedToken(t, { orgID: uniq('org') });
    await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(other)).expect(200);
  });
});

describe('CORS when configured', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ CORS_ORIGINS: 'https://app.example.com' });
  });

  afterAll(() => t.close());

  it('allows the configured origin and answers preflight requests', async () => {
    const res = await t.http.get('/health').set('Origin', 'https://app.example.com');
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const preflight = await t.http
      .options('/v1/products/addOne')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Idempotency-Key/i);
  });

  it('does not allow other origins', async () => {
    const res = await t.http.get('/health').set('Origin', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
