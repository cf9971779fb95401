import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { ConfigError } from '../config/config-error';
import { Secret } from '../config/server-fields';
import { OpenAiAgentConfig, readInterviewerAgents, readInterviewersConfig } from './interviewers.config';

const KEY = 'sk-live-0123456789abcdefABCDEF';
const GPT = { kind: 'openai', baseUrl: 'https://api.openai.com/v1/', model: 'gpt-4o-mini', apiKeyEnv: 'OPENAI_API_KEY', description: '  GPT for onboarding studies ' };
const OLLAMA = { kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:8b', timeoutMs: 60000, maxTurns: 12, contextTokens: 32768 };

const read = (env: Record<string, string>) => readInterviewersConfig(env);
const agents = (value: unknown, env: Record<string, string> = {}) => read({ INTERVIEWER_AGENTS: JSON.stringify(value), OPENAI_API_KEY: KEY, ...env });

/** The ConfigError message of a configuration that must not start. */
function refusal(env: Record<string, string>): string {
  try {
    read(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe(readInterviewerAgents.name, () => {
  it('configures no agent when INTERVIEWER_AGENTS is unset or blank', () => {
    expect(readInterviewerAgents({})).toEqual(new Map());
    expect(readInterviewerAgents({ INTERVIEWER_AGENTS: '  ' })).toEqual(new Map());
    expect(read({}).agents.size).toBe(0);
  });

  it('reads each agent with its defaults, the key resolved from apiKeyEnv', () => {
    const sut = agents({ gpt: GPT, 'ollama.local': OLLAMA }).agents;
    expect([...sut.keys()]).toEqual(['gpt', 'ollama.local']);
    const gpt = sut.get('gpt') as OpenAiAgentConfig;
    expect({ ...gpt, apiKey: gpt.apiKey?.reveal() }).toEqual({
      kind: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      apiKey: KEY,
      timeoutMs: 20000,
      maxTurns: 30,
      description: 'GPT for onboarding studies',
      contextTokens: 8192,
    });
    expect(sut.get('ollama.local')).toEqual({
      kind: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1:8b',
      apiKey: null,
      timeoutMs: 60000,
      maxTurns: 12,
      description: null,
      contextTokens: 32768,
    });
  });

  it('keeps the key out of JSON, string conversion and util.inspect', () => {
    const config = agents({ gpt: GPT });
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(`${String(config.agents.get('gpt')?.apiKey)}`).not.toContain(KEY);
    expect(new Secret('x').reveal()).toBe('x');
  });

  describe('@path/to/file.json', () => {
    let dir: string;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'irs-agents-'));
    });

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads the agents from the file', () => {
      const file = join(dir, 'agents.json');
      writeFileSync(file, JSON.stringify({ 'ollama.local': OLLAMA }, null, 2));
      expect([...read({ INTERVIEWER_AGENTS: `@${file}` }).agents.keys()]).toEqual(['ollama.local']);
    });

    it('names the file it cannot read', () => {
      const file = join(dir, 'missing.json');
      expect(refusal({ INTERVIEWER_AGENTS: `@${file}` })).toBe(`INTERVIEWER_AGENTS (file ${file}) cannot be read (ENOENT)`);
    });

    it('names the file whose JSON is invalid', () => {
      const file = join(dir, 'broken.json');
      writeFileSync(file, '{"gpt": {"kind": "openai",}}');
      expect(refusal({ INTERVIEWER_AGENTS: `@${file}` })).toMatch(new RegExp(`^INTERVIEWER_AGENTS \\(file ${file}\\) is not valid JSON`));
    });
  });

  describe('refuses a bad configuration with one ConfigError line naming the variable and the problem', () => {
    const agentsEnv = (value: unknown, env: Record<string, string> = {}) => ({ INTERVIEWER_AGENTS: typeof value === 'string' ? value : JSON.stringify(value), OPENAI_API_KEY: KEY, ...env });

    it.each<[string, Record<string, string>, RegExp]>([
      ['not JSON', agentsEnv('{gpt: {}}'), /^INTERVIEWER_AGENTS is not valid JSON/],
      ['a JSON array', agentsEnv([GPT]), /must be a JSON object mapping agent names/],
      ['a JSON string', agentsEnv('"gpt"'), /must be a JSON object mapping agent names/],
      ['a name with a space', agentsEnv({ 'my agent': GPT }), /agent name "my agent" must be 1 to 100 letters, digits/],
      ['a name with a slash', agentsEnv({ 'a/b': GPT }), /agent name "a\/b"/],
      ['a name over 100 characters', agentsEnv({ ['a'.repeat(101)]: GPT }), /agent name "a{100}…" must be 1 to 100/],
      ['the built-in name', agentsEnv({ default: GPT }), /"default" is the built-in agent's name/],
      ['an agent that is not an object', agentsEnv({ gpt: 'gpt-4o' }), /agent "gpt" must be an object like/],
      ['no kind', agentsEnv({ gpt: { ...GPT, kind: undefined } }), /agent "gpt": kind must be one of openai \(got undefined\)/],
      ['an unknown kind', agentsEnv({ gpt: { ...GPT, kind: 'anthropic' } }), /agent "gpt": kind must be one of openai \(got "anthropic"\)/],
      ['an unknown field', agentsEnv({ gpt: { ...GPT, temperature: 0.2 } }), /agent "gpt": unknown field "temperature"; allowed: kind, baseUrl/],
      ['no baseUrl', agentsEnv({ gpt: { ...GPT, baseUrl: undefined } }), /agent "gpt": baseUrl must be an absolute http\(s\) URL/],
      ['a baseUrl that is not http(s)', agentsEnv({ gpt: { ...GPT, baseUrl: 'ftp://models.example/v1' } }), /baseUrl must be an absolute http\(s\) URL/],
      ['a relative baseUrl', agentsEnv({ gpt: { ...GPT, baseUrl: '/v1' } }), /baseUrl must be an absolute http\(s\) URL/],
      ['a baseUrl with a query', agentsEnv({ gpt: { ...GPT, baseUrl: 'https://models.example/v1?key=1' } }), /baseUrl must be .* without query/],
      ['a baseUrl with credentials', agentsEnv({ gpt: { ...GPT, baseUrl: 'https://user:pw@models.example/v1' } }), /without query, fragment or credentials/],
      ['no model', agentsEnv({ gpt: { ...GPT, model: undefined } }), /agent "gpt": model is required/],
      ['a blank model', agentsEnv({ gpt: { ...GPT, model: '  ' } }), /agent "gpt": model must not be empty/],
      ['a model that is not a string', agentsEnv({ gpt: { ...GPT, model: 4 } }), /agent "gpt": model must be a string/],
      ['timeoutMs under 1,000', agentsEnv({ gpt: { ...GPT, timeoutMs: 999 } }), /timeoutMs must be a whole number from 1000 to 120000 \(got 999\)/],
      ['timeoutMs over 120,000', agentsEnv({ gpt: { ...GPT, timeoutMs: 120001 } }), /timeoutMs must be a whole number from 1000 to 120000/],
      ['timeoutMs as a string', agentsEnv({ gpt: { ...GPT, timeoutMs: '20000' } }), /timeoutMs must be a whole number/],
      ['a fractional maxTurns', agentsEnv({ gpt: { ...GPT, maxTurns: 2.5 } }), /maxTurns must be a whole number from 2 to 200/],
      ['maxTurns under 2', agentsEnv({ gpt: { ...GPT, maxTurns: 1 } }), /maxTurns must be a whole number from 2 to 200 \(got 1\)/],
      ['maxTurns over 200', agentsEnv({ gpt: { ...GPT, maxTurns: 201 } }), /maxTurns must be a whole number from 2 to 200/],
      ['contextTokens under 2,048', agentsEnv({ gpt: { ...GPT, contextTokens: 2047 } }), /agent "gpt": contextTokens must be a whole number from 2048 to 2000000 \(got 2047\)/],
      ['contextTokens over 2,000,000', agentsEnv({ gpt: { ...GPT, contextTokens: 2_000_001 } }), /contextTokens must be a whole number from 2048 to 2000000/],
      ['a fractional contextTokens', agentsEnv({ gpt: { ...GPT, contextTokens: 8192.5 } }), /contextTokens must be a whole number/],
      ['contextTokens as a string', agentsEnv({ gpt: { ...GPT, contextTokens: '8k' } }), /contextTokens must be a whole number from 2048 to 2000000 \(got "8k"\)/],
      ['a description over 500 characters', agentsEnv({ gpt: { ...GPT, description: 'd'.repeat(501) } }), /description must be at most 500 characters/],
      ['apiKeyEnv naming an unset variable', agentsEnv({ gpt: { ...GPT, apiKeyEnv: 'MISSING_KEY' } }), /agent "gpt": apiKeyEnv names MISSING_KEY, which is not set$/],
      ['apiKeyEnv naming an empty variable', agentsEnv({ gpt: GPT }, { OPENAI_API_KEY: ' ' }), /apiKeyEnv names OPENAI_API_KEY, which is not set/],
      ['a key with a space in it', agentsEnv({ gpt: GPT }, { OPENAI_API_KEY: 'sk two' }), /the value of OPENAI_API_KEY is not a usable API key/],
      ['more than 100 agents', agentsEnv(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, OLLAMA]))), /at most 100 agents \(got 101\)/],
    ])('%s', (_case, env, problem) => {
      const message = refusal(env);
      expect(message).toMatch(/^INTERVIEWER_AGENTS/);
      expect(message).toMatch(problem);
      expect(message).not.toMatch(/\n/);
    });

    it.each([
      ['the key given as apiKeyEnv', { gpt: { ...GPT, apiKeyEnv: KEY } }],
      ['the key given as an apiKey field', { gpt: { ...GPT, apiKey: KEY } }],
      ['the key inside invalid JSON', `{"gpt": {"apiKey": "${KEY}",}}`],
    ])('never quotes a key: %s', (_case, value) => {
      const message = refusal(agentsEnv(value));
      expect(message).not.toContain(KEY);
      expect(message).not.toContain(KEY.slice(0, 12));
    });

    it('points to apiKeyEnv when a key is put in the file', () => {
      expect(refusal(agentsEnv({ gpt: { ...GPT, apiKey: KEY } }))).toMatch(/unknown field "apiKey" \(put the key in an environment variable and name that variable in apiKeyEnv\)/);
    });
  });
});

describe('DEFAULT_INTERVIEWER', () => {
  it('is the built-in agent unless set', () => {
    expect(read({}).defaultInterviewer).toBe('default');
    expect(read({ DEFAULT_INTERVIEWER: '  ' }).defaultInterviewer).toBe('default');
  });

  it('may name a configured agent', () => {
    expect(agents({ gpt: GPT }, { DEFAULT_INTERVIEWER: 'gpt' }).defaultInterviewer).toBe('gpt');
  });

  it.each([
    [{ DEFAULT_INTERVIEWER: 'gpt' }, 'DEFAULT_INTERVIEWER must name a known interviewer agent (default); got "gpt"'],
    [{ DEFAULT_INTERVIEWER: 'GPT', INTERVIEWER_AGENTS: JSON.stringify({ gpt: OLLAMA }) }, 'DEFAULT_INTERVIEWER must name a known interviewer agent (default, gpt); got "GPT"'],
    [{ DEFAULT_INTERVIEWER: 'x'.repeat(300) }, `DEFAULT_INTERVIEWER must name a known interviewer agent (default); got "${'x'.repeat(100)}…"`],
  ])('stops start-up when it names no known agent (%p)', (env, message) => {
    expect(refusal(env)).toBe(message);
  });
});
