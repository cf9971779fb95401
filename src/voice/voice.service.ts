import type { ConfigType } from '@nestjs/config';
import { Injectable, Logger, Inject } from '@nestjs/common';
import { inSpan } from '../common/spans';
import { Metrics } from '../metrics/metrics.service';
import { durationOf, looksLike } from './audio-format';
import type { ModeDto } from './dto/mode.dto';
import { SpeechServerFailure, describeFailure, speak, transcribe } from './speech-servers';
import { voiceConfig } from './voice.config';
import {
  EmptyRecordingException,
  NoSpeechException,
  NotThatAudioException,
  RecordingTooLargeException,
  RecordingTooLongException,
  SpeakerUnavailableException,
  TranscriberUnavailableException,
  VoiceUnavailableException,
} from './voice.errors';
import { AudioType, VOICE_LIMITS } from './voice.limits';

/** A recording as the room received it. */
export interface Recording {
  bytes: Buffer;
  type: AudioType;
}

/**
 * Voice interviews' speech servers: the transcriber that turns a recorded answer into text, and the
 * optional speaker that says the interviewer's turns. Each call is timed and traced like an agent's turn
 * (span `voice.transcribe` / `voice.speak`, attributes without audio, text or link), and a failure is
 * logged with its reason only.
 */
@Injectable()
export class VoiceService {
  private readonly logger = new Logger(VoiceService.name);

  constructor(
    @Inject(voiceConfig.KEY) private readonly config: ConfigType<typeof voiceConfig>,
    private readonly metrics: Metrics,
  ) {}

  /** Whether voice interviews can run here (a transcriber is configured). */
  get canTranscribe(): boolean {
    return this.config.transcriber !== null;
  }

  /** Whether interviewer turns are spoken by a speech server (else by the browser's own synthesis). */
  get canSpeak(): boolean {
    return this.config.speaker !== null;
  }

  /** The interview modes and whether this service can run each (GET /v1/interviewers/getModes). */
  modes(): ModeDto[] {
    return [
      { mode: 'text', available: true, questionsSpokenBy: null },
      { mode: 'voice', available: this.canTranscribe, questionsSpokenBy: this.canSpeak ? 'server' : 'browser' },
    ];
  }

  /** 400 unless voice interviews can run here. */
  assertVoiceAvailable(): void {
    if (!this.canTranscribe) throw new VoiceUnavailableException();
  }

  /**
   * What a recording must be before it goes anywhere: not empty, of the type it claims, and not longer
   * than VOICE_LIMITS.audioSeconds where its container says how long it is.
   */
  checkRecording(recording: Recording): void {
    if (recording.bytes.length === 0) throw new EmptyRecordingException();
    if (recording.bytes.length > VOICE_LIMITS.audioBytes) throw new RecordingTooLargeException();
    if (!looksLike(recording.type, recording.bytes)) throw new NotThatAudioException(recording.type);
    const seconds = durationOf(recording.type, recording.bytes);
    if (seconds !== null && seconds > VOICE_LIMITS.audioSeconds) throw new RecordingTooLongException();
  }

  /**
   * The words of a recording, in `language` (the invite's). 503 when the transcriber fails or takes too
   * long, 413 when it reports a recording longer than allowed, 400 when it heard no words.
   */
  async transcribe(recording: Recording, language: string): Promise<string> {
    const config = this.config.transcriber;
    if (!config) throw new TranscriberUnavailableException();
    const attributes = { 'irs.voice.service': 'transcriber', 'irs.voice.content_type': recording.type, 'irs.voice.bytes': recording.bytes.length, 'irs.language': language };
    const started = performance.now();
    const outcome = await inSpan('voice.transcribe', attributes, async (span) => {
      const result = await transcribe(config, recording, language);
      span.setAttribute('irs.voice.result', result.ok ? 'ok' : describeFailure(result.failure).code);
      return result;
    });
    this.metrics.voiceCall('transcriber', (performance.now() - started) / 1000);
    if (!outcome.ok) throw this.failed('transcriber', outcome.failure, new TranscriberUnavailableException());
    if (outcome.durationSeconds !== null && outcome.durationSeconds > VOICE_LIMITS.audioSeconds) throw new RecordingTooLongException();
    const text = outcome.text.trim();
    if (text.length > VOICE_LIMITS.transcriptChars || text.includes('\0') || !text.isWellFormed()) {
      throw this.failed('transcriber', { kind: 'unusable' }, new TranscriberUnavailableException());
    }
    if (text === '') throw new NoSpeechException();
    return text;
  }

  /** An interviewer turn as audio from the speaker; 503 when it fails (the page then uses the browser's synthesis). */
  async speak(text: string, language: string): Promise<{ audio: Buffer; contentType: string }> {
    const config = this.config.speaker;
    if (!config) throw new SpeakerUnavailableException();
    const input = clip(text, VOICE_LIMITS.speechChars);
    const started = performance.now();
    const outcome = await inSpan('voice.speak', { 'irs.voice.service': 'speaker', 'irs.voice.characters': input.length, 'irs.language': language }, async (span) => {
      const result = await speak(config, input, language);
      span.setAttribute('irs.voice.result', result.ok ? 'ok' : describeFailure(result.failure).code);
      return result;
    });
    this.metrics.voiceCall('speaker', (performance.now() - started) / 1000);
    if (!outcome.ok) throw this.failed('speaker', outcome.failure, new SpeakerUnavailableException());
    return { audio: outcome.audio, contentType: outcome.contentType };
  }

  private failed<E extends Error>(service: 'transcriber' | 'speaker', failure: SpeechServerFailure, error: E): E {
    const { code, reason } = describeFailure(failure);
    this.logger.warn({ msg: service === 'transcriber' ? 'transcription failed' : 'speech failed', reason });
    this.metrics.voiceFailure(service, code);
    return error;
  }
}

/** At most `max` characters, cut at a space where there is one in the last fifth. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max * 0.8 ? cut : max);
}
