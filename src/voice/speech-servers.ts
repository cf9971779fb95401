import { toFile } from 'openai';
import type { SpeakerConfig, TranscriberConfig } from './voice.config';
import { AUDIO_FILE_NAMES, AudioType, VOICE_LIMITS } from './voice.limits';
import { ServerFailure, openAiClient, serverFailureOf } from '../common/openai-compatible';

/** Why a speech server gave nothing usable, in words for the log and a metric's label: never what was sent or received. */
export type SpeechServerFailure = ServerFailure | { kind: 'unusable' };

export type Transcription = { ok: true; text: string; durationSeconds: number | null } | { ok: false; failure: SpeechServerFailure };
export type Speech = { ok: true; audio: Buffer; contentType: string } | { ok: false; failure: SpeechServerFailure };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const unusable = { ok: false, failure: { kind: 'unusable' } } as const;

/**
 * One transcription on an OpenAI-compatible server (speaches / faster-whisper-server, whisper.cpp's
 * server, LocalAI, OpenAI): `POST {baseUrl}/audio/transcriptions` as multipart/form-data with the fields
 * `file`, `model`, `language` (ISO 639-1, as our language tags are) and `response_format`, through the
 * official SDK held to openAiClient's rules (no retries, no redirects, the timeout over the whole
 * exchange, the answer read up to VOICE_LIMITS.transcriptionResponseBytes).
 */
export async function transcribe(config: TranscriberConfig, recording: { bytes: Buffer; type: AudioType }, language: string): Promise<Transcription> {
  let body: unknown;
  try {
    body = await openAiClient(config, VOICE_LIMITS.transcriptionResponseBytes).audio.transcriptions.create({
      file: await toFile(recording.bytes, AUDIO_FILE_NAMES[recording.type], { type: recording.type }),
      model: config.model,
      language,
      response_format: config.responseFormat,
    });
  } catch (error) {
    return { ok: false, failure: serverFailureOf(error, config.timeoutMs) ?? { kind: 'unusable' } };
  }
  // The SDK hands a body that is not typed JSON over as text; the protocol's answer is JSON either way.
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return unusable;
    }
  }
  if (!isObject(body) || typeof body.text !== 'string') return unusable;
  const duration = typeof body.duration === 'number' && Number.isFinite(body.duration) && body.duration >= 0 ? body.duration : null;
  return { ok: true, text: body.text, durationSeconds: duration };
}

/**
 * One interviewer turn spoken by an OpenAI-compatible speech server (speaches, LocalAI, OpenAI):
 * `POST {baseUrl}/audio/speech` `{model, voice, input, response_format: "mp3"}`; the audio comes back
 * as the body. MP3 because every browser plays it. The SDK does not time a binary body, so a signal of
 * our own bounds the whole exchange.
 */
export async function speak(config: SpeakerConfig, text: string, language: string): Promise<Speech> {
  let audio: Buffer;
  let contentType: string;
  try {
    const response = await openAiClient(config, VOICE_LIMITS.speechBytes).audio.speech.create(
      { model: config.model, voice: config.voices[language] ?? config.voice, input: text, response_format: 'mp3' },
      { signal: AbortSignal.timeout(config.timeoutMs) },
    );
    contentType = response.headers.get('content-type')?.split(';', 1)[0].trim().toLowerCase() ?? 'audio/mpeg';
    audio = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    return { ok: false, failure: serverFailureOf(error, config.timeoutMs) ?? { kind: 'unusable' } };
  }
  // Whatever it is, it reaches a browser as audio only when it says it is audio.
  if (!/^audio\/[a-z0-9.+-]+$/.test(contentType) || audio.length === 0) return unusable;
  return { ok: true, audio, contentType };
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
