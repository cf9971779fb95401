import type { Secret } from '../interviewers/interviewers.config';
import type { SpeakerConfig, TranscriberConfig } from './voice.config';
import { AUDIO_FILE_NAMES, AudioType, VOICE_LIMITS } from './voice.limits';
import { readBoundedBody } from '../common/bounded-body';

/** Why a speech server gave nothing usable, in words for the log and a metric's label: never what was sent or received. */
export type SpeechServerFailure =
  | { kind: 'http'; status: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'unreachable'; code: string | null }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'unusable' };

export type Transcription = { ok: true; text: string; durationSeconds: number | null } | { ok: false; failure: SpeechServerFailure };
export type Speech = { ok: true; audio: Buffer; contentType: string } | { ok: false; failure: SpeechServerFailure };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One transcription on an OpenAI-compatible server (speaches / faster-whisper-server, whisper.cpp's
 * server, LocalAI, OpenAI): `POST {baseUrl}/audio/transcriptions` as multipart/form-data with the fields
 * `file`, `model`, `language` (ISO 639-1, as our language tags are) and `response_format`. Node's own
 * fetch, the key only in the Authorization header, no redirects, the timeout over the whole exchange.
 */
export async function transcribe(config: TranscriberConfig, recording: { bytes: Buffer; type: AudioType }, language: string): Promise<Transcription> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(recording.bytes)], { type: recording.type }), AUDIO_FILE_NAMES[recording.type]);
  form.append('model', config.model);
  form.append('language', language);
  form.append('response_format', config.responseFormat);
  const answer = await exchange(`${config.baseUrl}/audio/transcriptions`, config.apiKey, config.timeoutMs, form, VOICE_LIMITS.transcriptionResponseBytes);
  if (!answer.ok) return answer;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return { ok: false, failure: { kind: 'unusable' } };
  }
  if (!isObject(body) || typeof body.text !== 'string') return { ok: false, failure: { kind: 'unusable' } };
  const duration = typeof body.duration === 'number' && Number.isFinite(body.duration) && body.duration >= 0 ? body.duration : null;
  return { ok: true, text: body.text, durationSeconds: duration };
}

/**
 * One interviewer turn spoken by an OpenAI-compatible speech server (speaches, LocalAI, OpenAI):
 * `POST {baseUrl}/audio/speech` `{model, voice, input, response_format: "mp3"}`; the audio comes back
 * as the body. MP3 because every browser plays it.
 */
export async function speak(config: SpeakerConfig, text: string, language: string): Promise<Speech> {
  const request = JSON.stringify({ model: config.model, voice: config.voices[language] ?? config.voice, input: text, response_format: 'mp3' });
  const answer = await exchange(`${config.baseUrl}/audio/speech`, config.apiKey, config.timeoutMs, request, VOICE_LIMITS.speechBytes);
  if (!answer.ok) return answer;
  const contentType = answer.contentType?.split(';', 1)[0].trim().toLowerCase() ?? 'audio/mpeg';
  // Whatever it is, it reaches a browser as audio only when it says it is audio.
  if (!/^audio\/[a-z0-9.+-]+$/.test(contentType) || answer.body.length === 0) return { ok: false, failure: { kind: 'unusable' } };
  return { ok: true, audio: answer.body, contentType };
}

type Exchange = { ok: true; body: Buffer; contentType: string | null } | { ok: false; failure: SpeechServerFailure };

async function exchange(url: string, apiKey: Secret | null, timeoutMs: number, body: FormData | string, responseBytes: number): Promise<Exchange> {
  const headers: Record<string, string> = {};
  // FormData sets its own multipart Content-Type with the boundary.
  if (typeof body === 'string') headers['Content-Type'] = 'application/json';
  if (apiKey) headers.Authorization = `Bearer ${apiKey.reveal()}`;
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, failure: { kind: 'http', status: response.status } };
    }
    const read = await readBoundedBody(response, responseBytes);
    if (read === null) return { ok: false, failure: { kind: 'too-large', bytes: responseBytes } };
    return { ok: true, body: read, contentType: response.headers.get('content-type') };
  } catch (error) {
    return { ok: false, failure: failureOf(error, timeoutMs) };
  }
}

/** Why a request failed, from its error's name and code only: messages may quote what was sent. */
function failureOf(error: unknown, timeoutMs: number): SpeechServerFailure {
  // By name, not instanceof: fetch's DOMException may come from another realm than this module's Error.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout', ms: timeoutMs };
  const code: unknown = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return { kind: 'unreachable', code: typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : null };
}

/** A failure as a metric label and a log reason. */
export function describeFailure(failure: SpeechServerFailure): { code: string; reason: string } {
  switch (failure.kind) {
    case 'http':
      return { code: 'http-error', reason: `the server answered HTTP ${failure.status}` };
    case 'timeout':
      return { code: 'timeout', reason: `no answer within ${failure.ms} ms` };
    case 'unreachable':
      return { code: 'unreachable', reason: `the server could not be reached${failure.code ? ` (${failure.code})` : ''}` };
    case 'too-large':
      return { code: 'too-large', reason: `the answer was larger than ${failure.bytes} bytes` };
    case 'unusable':
      return { code: 'unusable-answer', reason: 'the answer was not what the protocol returns' };
  }
}
