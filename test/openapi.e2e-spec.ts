import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../src/swagger';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { makeProduct } from './helpers/factories';
import { OpenApiResponseValidator } from './helpers/openapi-validator';

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
    const before = t.responses.checked;
    await t.http.get('/v1/products/getOne').query({ productID }).set(bearer(admin)).expect(200);
    expect(t.responses.checked).toBe(before + 1);
  });
});
