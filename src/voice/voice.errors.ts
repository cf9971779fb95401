import { BadRequestException, PayloadTooLargeException, ServiceUnavailableException, UnsupportedMediaTypeException } from '@nestjs/common';
import { AUDIO_TYPES, AudioType, VOICE_LIMITS } from './voice.limits';

/** interviews addOne/updateOne with `mode: "voice"` while no TRANSCRIBER is configured. */
export class VoiceUnavailableException extends BadRequestException {
  constructor() {
    super('mode "voice" needs a transcriber, and this service has none configured (TRANSCRIBER); see GET /v1/interviewers/getModes');
  }
}

/** A recording with a Content-Type the room does not take. */
export class UnsupportedAudioTypeException extends UnsupportedMediaTypeException {
  constructor() {
    super(`Content-Type must be one of ${AUDIO_TYPES.join(', ')} (parameters such as ;codecs=opus allowed)`);
  }
}

export class EmptyRecordingException extends BadRequestException {
  constructor() {
    super('the recording is empty: send the audio as the request body');
  }
}

/** The body's first bytes are not of the type its Content-Type names. */
export class NotThatAudioException extends BadRequestException {
  constructor(type: AudioType) {
    super(`the recording is not ${type} data, as its Content-Type says`);
  }
}

export class RecordingTooLargeException extends PayloadTooLargeException {
  constructor() {
    super(`the recording is larger than ${VOICE_LIMITS.audioBytes / (1024 * 1024)} MiB`);
  }
}

export class RecordingTooLongException extends PayloadTooLargeException {
  constructor() {
    super(`the recording is longer than ${VOICE_LIMITS.audioSeconds} seconds`);
  }
}

/** The transcriber failed or took too long: 503 with Retry-After (the filter adds it), nothing stored. */
export class TranscriberUnavailableException extends ServiceUnavailableException {
  constructor() {
    super('the recording could not be transcribed just now; nothing was stored: send it again shortly, or type the answer');
  }
}

/** The transcriber heard no words. */
export class NoSpeechException extends BadRequestException {
  constructor() {
    super('no speech was recognised in the recording: record the answer again, or type it');
  }
}

export class SpeakerUnavailableException extends ServiceUnavailableException {
  constructor() {
    super('the question could not be spoken just now');
  }
}
