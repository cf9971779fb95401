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
        'Prism: GET /v1/invites/getOne -> 200: body.result.status Response body property result.status must be equal to one of the allowed values: pending, started, completed, expired',
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
