import { ConfigError } from '../config/config-error';
import { Env, quote, readJsonVariable } from '../config/env';
import { Json, Secret, checkFields, isObject, readApiKey, readBaseUrl, readWholeNumber } from '../config/server-fields';
import { LANGUAGE_TAGS } from '../languages/languages';
import { VOICE_LIMITS } from './voice.limits';
import { featureConfig } from '../config/feature-config';

/** An OpenAI-compatible transcription server (`POST {baseUrl}/audio/transcriptions`): speaches, whisper.cpp's server, LocalAI, OpenAI. */
export interface TranscriberConfig {
  /** Without a trailing slash, e.g. http://localhost:8000/v1. */
  baseUrl: string;
  model: string;
  /** Resolved from the variable named by apiKeyEnv; null sends no Authorization header. */
  apiKey: Secret | null;
  timeoutMs: number;
  /**
   * verbose_json (the default) also reports the recording's duration, which bounds recordings whose
   * container does not say it; json for servers that only answer that (OpenAI's gpt-4o-transcribe).
   */
  responseFormat: 'verbose_json' | 'json';
}

/** An OpenAI-compatible speech server (`POST {baseUrl}/audio/speech`): speaches, LocalAI, OpenAI. */
export interface SpeakerConfig {
  baseUrl: string;
  model: string;
  /** The voice for every language without one of its own in `voices`. */
  voice: string;
  /** Voices by language tag, for servers whose voices speak one language each (Kokoro, Piper). */
  voices: Readonly<Record<string, string>>;
  apiKey: Secret | null;
  timeoutMs: number;
}

/** The speech servers of voice interviews (the namespace voiceConfig): their type is this reader's, as with Nest's registerAs. */
export function readVoiceConfig(env: Env) {
  return {
    /** TRANSCRIBER; null: no voice interviews (`mode: "voice"` is refused). */
    transcriber: readTranscriber(env),
    /** SPEAKER; null: the room speaks questions with the browser's own speech synthesis. */
    speaker: readSpeaker(env),
  } as const;
}

export const voiceConfig = featureConfig('voice', readVoiceConfig);

const TRANSCRIBER_FIELDS = ['baseUrl', 'model', 'apiKeyEnv', 'timeoutMs', 'responseFormat'];
const SPEAKER_FIELDS = ['baseUrl', 'model', 'voice', 'voices', 'apiKeyEnv', 'timeoutMs'];
const SERVER_EXAMPLE = 'http://localhost:8000/v1';

/** TRANSCRIBER: `{baseUrl, model, apiKeyEnv?, timeoutMs?, responseFormat?}` as JSON or `@path/to/file.json`; unset or blank: none. */
export function readTranscriber(env: Env): TranscriberConfig | null {
  const read = readObject(env, 'TRANSCRIBER', TRANSCRIBER_FIELDS, '{"baseUrl": "http://localhost:8000/v1", "model": "Systran/faster-whisper-small"}');
  if (!read) return null;
  const { where, value } = read;
  const responseFormat = value.responseFormat ?? 'verbose_json';
  if (responseFormat !== 'verbose_json' && responseFormat !== 'json') throw new ConfigError(`${where}: responseFormat must be "verbose_json" or "json" (got ${quote(responseFormat)})`);
  return {
    baseUrl: readBaseUrl(where, value.baseUrl, SERVER_EXAMPLE),
    model: readName(where, 'model', value.model, VOICE_LIMITS.model),
    apiKey: readApiKey(env, where, value.apiKeyEnv),
    timeoutMs: readWholeNumber(where, 'timeoutMs', value.timeoutMs, VOICE_LIMITS.transcriberTimeoutMs),
    responseFormat,
  };
}

/** SPEAKER: `{baseUrl, model, voice, voices?, apiKeyEnv?, timeoutMs?}` as JSON or `@path/to/file.json`; unset or blank: none. */
export function readSpeaker(env: Env): SpeakerConfig | null {
  const read = readObject(env, 'SPEAKER', SPEAKER_FIELDS, '{"baseUrl": "http://localhost:8000/v1", "model": "speaches-ai/Kokoro-82M-v1.0-ONNX", "voice": "af_heart"}');
  if (!read) return null;
  const { where, value } = read;
  const voices: Record<string, string> = {};
  if (value.voices !== undefined && value.voices !== null) {
    if (!isObject(value.voices)) throw new ConfigError(`${where}: voices must be an object of language tags and voices, like {"ja": "jf_alpha"}`);
    for (const [language, voice] of Object.entries(value.voices)) {
      if (!(LANGUAGE_TAGS as readonly string[]).includes(language)) throw new ConfigError(`${where}: voices: ${quote(language)} is not a supported language (${LANGUAGE_TAGS.join(', ')})`);
      voices[language] = readName(where, `voices.${language}`, voice, VOICE_LIMITS.voice);
    }
  }
  return {
    baseUrl: readBaseUrl(where, value.baseUrl, SERVER_EXAMPLE),
    model: readName(where, 'model', value.model, VOICE_LIMITS.model),
    voice: readName(where, 'voice', value.voice, VOICE_LIMITS.voice),
    voices,
    apiKey: readApiKey(env, where, value.apiKeyEnv),
    timeoutMs: readWholeNumber(where, 'timeoutMs', value.timeoutMs, VOICE_LIMITS.speakerTimeoutMs),
  };
}

/** The variable's JSON object (inline or from the file it names), its fields checked against `fields`. */
function readObject(env: Env, variable: string, fields: readonly string[], example: string): { where: string; value: Json } | null {
  const read = readJsonVariable(env, variable);
  if (!read) return null;
  const { where, parsed: value } = read;
  if (!isObject(value)) throw new ConfigError(`${where} must be a JSON object like ${example}`);
  checkFields(where, value, fields);
  return { where, value };
}

/** A model or voice name: required, 1 to `max` printable characters. */
function readName(where: string, field: string, value: unknown, max: number): string {
  if (value === undefined || value === null) throw new ConfigError(`${where}: ${field} is required`);
  if (typeof value !== 'string') throw new ConfigError(`${where}: ${field} must be a string`);
  const text = value.trim();
  if (text === '') throw new ConfigError(`${where}: ${field} must not be empty`);
  if (text.length > max || [...text].some((c) => c < ' ' || c === '\x7f') || !text.isWellFormed()) throw new ConfigError(`${where}: ${field} must be at most ${max} printable characters`);
  return text;
}
