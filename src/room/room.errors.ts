import { ConflictException, NotFoundException } from '@nestjs/common';

/**
 * No interview behind this link. The message does not repeat the link: a linkID is a secret, and an
 * error message must never carry one.
 */
export class RoomNotFoundException extends NotFoundException {
  constructor() {
    super('there is no interview at this link; check that you copied all of it');
  }
}

/** A recording sent to an interview that is not held by voice (its mode is text, or the service has no transcriber any more). */
export class NotVoiceInterviewException extends ConflictException {
  constructor() {
    super('this interview is held in text, not by voice: send the answer as text to /reply');
  }
}

/**
 * No speech for that turn: not an interviewer turn, not a voice interview that is started or
 * completed, or no speech server. Like every room error, it never repeats the link.
 */
export class NoSpeechHereException extends NotFoundException {
  constructor() {
    super('there is no spoken interviewer turn at this index of this interview');
  }
}
