import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../src/config/config-error';
import { TestApp, bearer, expectError, scopedToken, startApp, uniq, useTestApp } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';

const KEY = 'sk-e2e-4a7f0c2b9d1e8f3a6b5c4d3e2f1a0b9c';

/** Two agents on a local chat-completions server (which only counts calls: listing must make none). */
function agents(baseUrl: string) {
  return {
    'gpt-test': { kind: 'openai', baseUrl, model: 'gpt-test-model', apiKeyEnv: 'IRS_E2E_MODEL_KEY', description: 'Test model for onboarding studies', maxTurns: 12 },
    'local.llama': { kind: 'openai', baseUrl, model: 'llama3.1:8b', timeoutMs: 60000 },
  };
}

const BUILT_IN = { interviewer: 'default', kind: 'builtin', description: expect.stringMatching(/^Built in: asks the questions written in the guidelines/) };
const LISTED = [
  BUILT_IN,
  { interviewer: 'gpt-test', kind: 'openai', description: 'Test model for onboarding studies' },
  { interviewer: 'local.llama', kind: 'openai', description: null },
];

describe('Interviewer agents', () => {
  let t: TestApp;
  let admin: string;
  let model: Server;
  let modelUrl: string;
  let modelCalls = 0;
  // Filled before the app starts (useTestApp reads it in its own beforeAll, registered after this one).
  const env: Record<string, string> = { IRS_E2E_MODEL_KEY: KEY };

  beforeAll(async () => {
    model = createServer((_req, res) => {
      modelCalls++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    env.INTERVIEWER_AGENTS = JSON.stringify(agents(modelUrl));
  });

  useTestApp((app) => ({ t, admin } = app), env);

  afterAll(async () => {
    await new Promise((resolve) => model.close(resolve));
  });

  const read = async (interviewID: string) => (await t.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(admin))).body.result.interviewer;
  const update = (body: Record<string, unknown>) => t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send(body);

  describe('GET /v1/interviewers/getList', () => {
    it('lists the built-in agent first, then the configured ones', async () => {
      const res = await t.http.get('/v1/interviewers/getList').set(bearer(admin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: LISTED });
    });

    it('shows no endpoint, model or key, and calls no model', async () => {
      const res = await t.http.get('/v1/interviewers/getList').set(bearer(admin));
      for (const hidden of [KEY, modelUrl, '127.0.0.1', 'gpt-test-model', 'llama3.1', 'IRS_E2E_MODEL_KEY']) expect(res.text).not.toContain(hidden);
      expect(modelCalls).toBe(0);
    });

    it('answers a token scoped to any organization or user with the same list', async () => {
      for (const scope of [{ orgID: uniq('org') }, { userID: uniq('user') }]) {
        const res = await t.http.get('/v1/interviewers/getList').set(bearer(await scopedToken(t, scope)));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ result: LISTED });
      }
    });

    it('answers 401 without a token', async () => {
      const res = await t.http.get('/v1/interviewers/getList');
      expectError(res, 401, /missing Authorization/);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it.each([
      ['x=1', /^unknown field "x" is not allowed$/],
      ['limit=10', /^unknown field "limit" is not allowed$/],
      ['orgID=a&orgID=b', /^unknown field "orgID" is not allowed$/],
      ['a=1&b=2', /^unknown field "a" is not allowed; unknown field "b" is not allowed$/],
    ])('refuses the query parameter in ?%s with 400 naming it', async (query, message) => {
      expectError(await t.http.get(`/v1/interviewers/getList?${query}`).set(bearer(admin)), 400, message);
    });

    it('is documented under its own tag, without parameters', async () => {
      const doc = (await t.http.get('/docs-json')).body;
      const op = doc.paths['/v1/interviewers/getList'].get;
      expect(op.tags).toEqual(['interviewers']);
      expect(op.parameters ?? []).toEqual([]);
      expect(op.responses['200'].content['application/json'].schema.properties.result).toEqual({
        type: 'array',
        items: { $ref: '#/components/schemas/InterviewerDto' },
        maxItems: 101,
      });
      expect(doc.components.schemas.InterviewerDto.properties.kind.enum).toEqual(['builtin', 'openai']);
      expect(doc.tags).toContainEqual(expect.objectContaining({ name: 'interviewers' }));
    });
  });

  describe('POST /v1/interviews/updateOne with an interviewer', () => {
    let interviewID: string;

    beforeEach(async () => {
      interviewID = await makeInterview(t, admin, await makeProduct(t, admin, { orgID: uniq('org') }));
    });

    it('sets a configured agent, and getOne shows it', async () => {
      const res = await update({ interviewID, interviewer: 'gpt-test' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { interviewID, status: 'updated' } });
      expect(await read(interviewID)).toBe('gpt-test');
      await update({ interviewID, interviewer: 'local.llama' }).expect(200);
      expect(await read(interviewID)).toBe('local.llama');
      await update({ interviewID, interviewer: 'default' }).expect(200);
      expect(await read(interviewID)).toBe('default');
    });

    it.each(['agent-empathetic', 'GPT-TEST', 'gpt-test ', 'default2'])('refuses the unknown agent %p with 400 listing the known ones, and writes nothing', async (interviewer) => {
      await update({ interviewID, interviewer: 'gpt-test' }).expect(200);
      const before = await dbFingerprint(t.db);
      const res = await update({ interviewID, interviewer, interviewName: 'Renamed' });
      expectError(res, 400);
      expect(res.body.message).toBe(
        `interviewer ${JSON.stringify(interviewer)} is not a known agent; known agents: default, gpt-test, local.llama (GET /v1/interviewers/getList)`,
      );
      expect(await dbFingerprint(t.db)).toBe(before);
      expect((await t.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(admin))).body.result).toMatchObject({
        interviewName: 'Test interview',
        interviewer: 'gpt-test',
      });
    });

    it.each([null, ''])('resets to the default agent on %p', async (interviewer) => {
      await update({ interviewID, interviewer: 'gpt-test' }).expect(200);
      await update({ interviewID, interviewer }).expect(200);
      expect(await read(interviewID)).toBe('default');
    });

    it('leaves the interviewer as it is when the field is absent', async () => {
      await update({ interviewID, interviewer: 'local.llama' }).expect(200);
      await update({ interviewID, interviewName: 'Renamed' }).expect(200);
      expect(await read(interviewID)).toBe('local.llama');
    });
  });

  describe('DEFAULT_INTERVIEWER naming a configured agent', () => {
    let other: TestApp;

    beforeAll(async () => {
      other = await startApp({ ...env, DEFAULT_INTERVIEWER: 'local.llama' });
    });

    afterAll(() => other.close());

    it('is the agent of new interviews and the one null or "" resets to', async () => {
      const token = (await other.tokens.create({ isAdmin: true })).token;
      const interviewID = await makeInterview(other, token, await makeProduct(other, token, { orgID: uniq('org') }));
      const get = async () => (await other.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(token))).body.result.interviewer;
      expect(await get()).toBe('local.llama');
      await other.http.post('/v1/interviews/updateOne').set(bearer(token)).send({ interviewID, interviewer: 'default' }).expect(200);
      expect(await get()).toBe('default');
      await other.http.post('/v1/interviews/updateOne').set(bearer(token)).send({ interviewID, interviewer: null }).expect(200);
      expect(await get()).toBe('local.llama');
    });
  });

  describe('start-up', () => {
    it.each([
      [{ DEFAULT_INTERVIEWER: 'gpt-test' }, /^DEFAULT_INTERVIEWER must name a known interviewer agent \(default\); got "gpt-test"$/],
      [{ INTERVIEWER_AGENTS: '{"default": {"kind": "openai"}}' }, /^INTERVIEWER_AGENTS: "default" is the built-in agent's name/],
      [{ INTERVIEWER_AGENTS: JSON.stringify({ gpt: { kind: 'openai', baseUrl: 'https://x.example/v1', model: 'm', apiKeyEnv: 'IRS_E2E_UNSET_KEY' } }) }, /apiKeyEnv names IRS_E2E_UNSET_KEY, which is not set/],
    ])('refuses to start with %p', async (bad, message) => {
      await expect(startApp(bad)).rejects.toThrow(ConfigError);
      await expect(startApp(bad)).rejects.toThrow(message);
    });
  });
});
