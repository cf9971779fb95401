import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { ConfigError } from '../config/config-error';
import { readSpeaker, readTranscriber, readVoiceConfig } from './voice.config';

const KEY = 'sk-speech-0123456789abcdef';
const WHISPER = { baseUrl: 'http://localhost:8000/v1/', model: 'Systran/faster-whisper-small' };
const KOKORO = { baseUrl: 'http://localhost:8000/v1', model: 'speaches-ai/Kokoro-82M-v1.0-ONNX', voice: 'af_heart' };

/** The ConfigError message of an environment that must not start. */
function refusal(env: Record<string, string>): string {
  try {
    readVoiceConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const json = (value: unknown) => JSON.stringify(value);

describe(readVoiceConfig.name, () => {
  it('has neither server when TRANSCRIBER and SPEAKER are unset or blank', () => {
    expect(readVoiceConfig({})).toEqual({ transcriber: null, speaker: null });
    expect(readVoiceConfig({ TRANSCRIBER: '  ', SPEAKER: '' })).toEqual({ transcriber: null, speaker: null });
  });

  it('reads a transcriber with its defaults, without the trailing slash', () => {
    expect(readTranscriber({ TRANSCRIBER: json(WHISPER) })).toEqual({
      baseUrl: 'http://localhost:8000/v1',
      model: 'Systran/faster-whisper-small',
      apiKey: null,
      timeoutMs: 60_000,
      responseFormat: 'verbose_json',
    });
  });

  it('reads a speaker, its voices by language, and the keys from the variables apiKeyEnv names', () => {
    const sut = readVoiceConfig({
      TRANSCRIBER: json({ ...WHISPER, apiKeyEnv: 'SPEECH_KEY', timeoutMs: 120_000, responseFormat: 'json' }),
      SPEAKER: json({ ...KOKORO, voices: { ja: 'jf_alpha' }, apiKeyEnv: 'SPEECH_KEY', timeoutMs: 5000 }),
      SPEECH_KEY: KEY,
    });
    expect(sut.transcriber).toMatchObject({ timeoutMs: 120_000, responseFormat: 'json' });
    expect(sut.transcriber?.apiKey?.reveal()).toBe(KEY);
    expect({ ...sut.speaker, apiKey: sut.speaker?.apiKey?.reveal() }).toEqual({ ...KOKORO, voices: { ja: 'jf_alpha' }, apiKey: KEY, timeoutMs: 5000 });
  });

  it('keeps the key out of JSON, string conversion and util.inspect', () => {
    const sut = readVoiceConfig({ TRANSCRIBER: json({ ...WHISPER, apiKeyEnv: 'SPEECH_KEY' }), SPEECH_KEY: KEY });
    expect(JSON.stringify(sut)).not.toContain(KEY);
    expect(inspect(sut, { depth: 5 })).not.toContain(KEY);
    expect(String(sut.transcriber?.apiKey)).not.toContain(KEY);
  });

  it('reads the JSON from a file named with @', () => {
    const dir = mkdtempSync(join(tmpdir(), 'irs-voice-'));
    try {
      writeFileSync(join(dir, 'speaker.json'), json(KOKORO));
      expect(readSpeaker({ SPEAKER: `@${join(dir, 'speaker.json')}` })?.voice).toBe('af_heart');
      expect(refusal({ SPEAKER: `@${join(dir, 'missing.json')}` })).toBe(`SPEAKER (file ${join(dir, 'missing.json')}) cannot be read (ENOENT)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ TRANSCRIBER: '{"baseUrl": ' }, /^TRANSCRIBER is not valid JSON/],
    [{ TRANSCRIBER: '["http://x"]' }, /^TRANSCRIBER must be a JSON object like/],
    [{ TRANSCRIBER: json({ ...WHISPER, baseUrl: 'ftp://x/v1' }) }, /^TRANSCRIBER: baseUrl must be an absolute http\(s\) URL/],
    [{ TRANSCRIBER: json({ ...WHISPER, baseUrl: 'http://user:pw@x/v1' }) }, /^TRANSCRIBER: baseUrl must be an absolute http\(s\) URL without query, fragment or credentials/],
    [{ TRANSCRIBER: json({ baseUrl: WHISPER.baseUrl }) }, /^TRANSCRIBER: model is required$/],
    [{ TRANSCRIBER: json({ ...WHISPER, model: ' ' }) }, /^TRANSCRIBER: model must not be empty$/],
    [{ TRANSCRIBER: json({ ...WHISPER, timeoutMs: 10 }) }, /^TRANSCRIBER: timeoutMs must be a whole number from 1000 to 600000 \(got 10\)$/],
    [{ TRANSCRIBER: json({ ...WHISPER, responseFormat: 'srt' }) }, /^TRANSCRIBER: responseFormat must be "verbose_json" or "json"/],
    [{ TRANSCRIBER: json({ ...WHISPER, language: 'en' }) }, /^TRANSCRIBER: unknown field "language"; allowed: baseUrl, model, apiKeyEnv, timeoutMs, responseFormat$/],
    [{ TRANSCRIBER: json({ ...WHISPER, apiKeyEnv: 'UNSET_SPEECH_KEY' }) }, /^TRANSCRIBER: apiKeyEnv names UNSET_SPEECH_KEY, which is not set$/],
    [{ SPEAKER: json({ baseUrl: KOKORO.baseUrl, model: KOKORO.model }) }, /^SPEAKER: voice is required$/],
    [{ SPEAKER: json({ ...KOKORO, voices: { xx: 'v' } }) }, /^SPEAKER: voices: "xx" is not a supported language/],
    [{ SPEAKER: json({ ...KOKORO, voices: ['v'] }) }, /^SPEAKER: voices must be an object/],
    [{ SPEAKER: json({ ...KOKORO, apiKeyEnv: 'UNSET_SPEECH_KEY' }) }, /^SPEAKER: apiKeyEnv names UNSET_SPEECH_KEY, which is not set$/],
    [{ SPEAKER: json({ ...KOKORO, timeoutMs: 1.5 }) }, /^SPEAKER: timeoutMs must be a whole number/],
  ])('refuses %p with one line naming the variable', (env, message) => {
    const line = refusal(env);
    expect(line).toMatch(message);
    expect(line).not.toContain('\n');
  });

  it('never quotes a key put where a variable name belongs, or in a field of its own', () => {
    const asName = refusal({ TRANSCRIBER: json({ ...WHISPER, apiKeyEnv: KEY }) });
    expect(asName).toBe('TRANSCRIBER: apiKeyEnv must be the name of an environment variable (letters, digits and "_"), not the key itself');
    const asField = refusal({ SPEAKER: json({ ...KOKORO, apiKey: KEY }) });
    expect(asField).toMatch(/^SPEAKER: unknown field "apiKey" \(put the key in an environment variable and name that variable in apiKeyEnv\)/);
    expect(asField).not.toContain(KEY);
    expect(refusal({ TRANSCRIBER: `{"apiKey": "${KEY}", ` })).not.toContain(KEY);
  });

  it('refuses a key that cannot travel in a header', () => {
    expect(refusal({ TRANSCRIBER: json({ ...WHISPER, apiKeyEnv: 'SPEECH_KEY' }), SPEECH_KEY: 'two words' })).toBe(
      'TRANSCRIBER: the value of SPEECH_KEY is not a usable API key (printable characters without spaces)',
    );
  });
});
