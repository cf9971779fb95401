import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../src/swagger';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { makeProduct } from './helpers/factories';
import { OpenApiResponseValidator } from './helpers/openapi-validator';
import { PrismResponseValidator } from './helpers/prism-validator';

/**
 * A one-route document whose `thing` is written as @nestjs/swagger writes a nullable class property in
 * OpenAPI 3.0 (`nullable` beside `allOf: [$ref]`): standard validators refuse null there.
 */
const NULLABLE_REF_DOC = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/v1/thing': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['thing', 'plain'],
                  properties: {
                    thing: { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Thing' }] },
                    plain: { type: 'string', nullable: true },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Thing: { type: 'object', properties: { a: { type: 'string' } } } } },
};

const run = promisify(execFile);

describe('The OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });

  afterAll(() => t.close());

  it('passes Spectral with the OWASP API Security ruleset without errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'irs-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify((await t.http.get('/docs-json')).body));
      const { stdout } = await run(process.execPath, ['node_modules/@stoplight/spectral-cli/dist/index.js', 'lint', file, '--ruleset', '.spectral.yaml', '-f', 'json', '--quiet'], {
        maxBuffer: 64 * 1024 * 1024,
      }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      const results: { severity: number; code: string; path: string[] }[] = JSON.parse(stdout.slice(stdout.indexOf('[')));
      const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join('.')}`);
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('states what the service enforces: closed request bodies, either owner, http(s) URLs, the headers it sends', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const schemas = doc.components.schemas;
    for (const name of ['CreateProductDto', 'UpdateProductDto', 'CreateInterviewDto', 'UpdateInterviewDto']) {
      expect({ name, additionalProperties: schemas[name].additionalProperties }).toEqual({ name, additionalProperties: false });
    }
    expect(schemas.CreateProductDto.anyOf).toEqual([{ required: ['orgID'] }, { required: ['userID'] }]);
    expect(schemas.CreateProductDto.properties.url).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(schemas.CreateProductDto.properties.imageLink).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(schemas.CreateInterviewDto.properties.interviewer).toBeUndefined();
    expect(Object.keys(doc.paths['/v1/products/getOne'].get.responses['401'].headers)).toContain('WWW-Authenticate');
    for (const [path, method, status] of [
      ['/v1/products/addOne', 'post', '201'],
      ['/v1/interviews/addOne', 'post', '201'],
      ['/v1/invites/createInvites', 'get', '200'],
    ]) {
      expect({ path, replayed: doc.paths[path][method].responses[status].headers['Idempotent-Replayed'] }).toEqual({
        path,
        replayed: expect.objectContaining({ schema: { type: 'string', enum: ['true'] } }),
      });
    }
  });

  it('pre-fills no optional parameter in Swagger UI: only required ones carry an example', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const prefilled: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { parameters?: { name: string; required?: boolean; example?: unknown; examples?: unknown; schema?: { example?: unknown } }[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) {
          if (!p.required && (p.example !== undefined || p.examples !== undefined || p.schema?.example !== undefined)) prefilled.push(`${method} ${path} ${p.name}`);
        }
      }
    }
    expect(prefilled).toEqual([]);
  });

  it('pre-fills no identifier in Swagger UI, and says where to get each required one', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const ids: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { parameters?: { name: string; in: string; required?: boolean; description?: string; example?: unknown; schema?: { example?: unknown } }[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) {
          if (!/ID$/.test(p.name) || p.in === 'path') continue;
          ids.push(`${method} ${path} ${p.name}`);
          expect({ at: `${method} ${path} ${p.name}`, example: p.example ?? p.schema?.example }).toEqual({ at: `${method} ${path} ${p.name}`, example: undefined });
          if (p.required) expect({ at: `${method} ${path} ${p.name}`, description: p.description }).toEqual({ at: `${method} ${path} ${p.name}`, description: expect.stringMatching(/from [a-z]+\/[a-zA-Z]+/) });
        }
      }
    }
    expect(ids).toContain('get /v1/products/getOne productID');
  });

  it('lists as required every field a response always carries (null or not), so strict generated clients need no undefined', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const schemas: Record<string, unknown> = doc.components.schemas;
    // Every object schema a response can reach (inline, or through $ref); request bodies have optional fields on purpose.
    const seen = new Set<string>();
    const optional: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const schema = node as { $ref?: string; properties?: Record<string, unknown>; required?: string[] };
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.replace('#/components/schemas/', '');
        if (!seen.has(name)) {
          seen.add(name);
          visit(schemas[name], name);
        }
        return;
      }
      for (const prop of Object.keys(schema.properties ?? {})) if (!(schema.required ?? []).includes(prop)) optional.push(`${at}.${prop}`);
      for (const [key, value] of Object.entries(schema)) visit(value, key === 'properties' || key === 'items' ? at : `${at}.${key}`);
    };
    for (const [path, item] of Object.entries<Record<string, { responses: unknown }>>(doc.paths)) for (const [method, op] of Object.entries(item)) visit(op.responses, `${method} ${path}`);
    expect([...seen]).toEqual(expect.arrayContaining(['InviteDto', 'WebhookDto', 'ErrorResponseDto']));
    expect(optional).toEqual([]);
  });

  it('shows, for each error status of each route, an example with that status and a message of its own', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const byStatus = new Map<string, Set<string>>();
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { content?: Record<string, { example?: { error: number; message: string } }> }> }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400 || !response.content?.['application/json']) continue;
          const example = response.content['application/json'].example;
          expect({ at: `${method} ${path} ${status}`, example }).toEqual({ at: `${method} ${path} ${status}`, example: { error: Number(status), message: expect.any(String) } });
          byStatus.set(status, (byStatus.get(status) ?? new Set()).add(example!.message));
        }
      }
    }
    // Every status says something different; 404s name what was not found.
    const firsts = [...byStatus.values()].map((messages) => [...messages][0]);
    expect(new Set(firsts).size).toBe(firsts.length);
    expect([...byStatus.get('404')!]).toEqual(expect.arrayContaining([expect.stringMatching(/^product "/), expect.stringMatching(/^invite "/), expect.stringMatching(/^webhook "/)]));
    expect(doc.paths['/v1/products/getOne'].get.responses['401'].content['application/json'].example.message).toMatch(/Authorization/);
  });

  it('is what the response validator checks every e2e response against, and the validator bites', async () => {
    const sut = new OpenApiResponseValidator(buildOpenApiDocument(t.app) as never);
    sut.check('GET', '/v1/products/getOne?productID=x', 200, 'application/json', { result: { productID: 'x' } });
    sut.check('GET', '/v1/products/getOne', 418, 'application/json', { error: 418, message: 'teapot' });
    sut.check('GET', '/v1/products/getOne', 404, 'application/json', { error: '404', message: 'x' });
    expect(sut.violations).toHaveLength(3);
    expect(sut.violations[0]).toMatch(/must have required property 'name'/);
    expect(sut.violations[1]).toMatch(/status not documented/);

    const admin = await adminToken(t);
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const before = { ours: t.responses.checked, prism: t.prism.checked };
    await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin)).expect(200);
    expect({ ours: t.responses.checked, prism: t.prism.checked }).toEqual({ ours: before.ours + 1, prism: before.prism + 1 });
  });

  it('is checked by Prism too, which bites on a response the document does not allow', async () => {
    const sut = await PrismResponseValidator.create(buildOpenApiDocument(t.app));
    sut.check('GET', '/v1/products/getOne', 200, { 'content-type': 'application/json' }, { result: { productID: 'x' } });
    sut.check('GET', '/v1/invites/getOne', 200, { 'content-type': 'application/json' }, { result: { linkID: 'x', status: 'bogus' } });
    expect(sut.violations).toEqual(
      expect.arrayContaining([
        "Prism: GET /v1/products/getOne -> 200: body.result Response body property result must have required property 'name'",
        'Prism: GET /v1/invites/getOne -> 200: body.result.status Response body property result.status must be equal to one of the allowed values: pending, started, completed, abandoned, expired, revoked',
      ]),
    );
  });

  it('reads nullable as standard validators do: null is refused beside a $ref, allowed beside a type', async () => {
    const ours = new OpenApiResponseValidator(NULLABLE_REF_DOC as never);
    const prism = await PrismResponseValidator.create(NULLABLE_REF_DOC);
    const json = { 'content-type': 'application/json' };
    ours.check('GET', '/v1/thing', 200, json['content-type'], { thing: { a: 'x' }, plain: null });
    prism.check('GET', '/v1/thing', 200, json, { thing: { a: 'x' }, plain: null });
    expect([...ours.violations, ...prism.violations]).toEqual([]);
    ours.check('GET', '/v1/thing', 200, json['content-type'], { thing: null, plain: null });
    prism.check('GET', '/v1/thing', 200, json, { thing: null, plain: null });
    expect(ours.violations).toEqual([expect.stringMatching(/\/v1\/thing -> 200: .*thing/)]);
    expect(prism.violations).toEqual([expect.stringMatching(/\/v1\/thing -> 200: body.thing .*must be object/)]);
  });
});
