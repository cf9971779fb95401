import { BadRequestException, ConflictException } from '@nestjs/common';
import { RecordNotFoundException } from '../common/errors';

export class InterviewNotFoundException extends RecordNotFoundException {
  constructor(id: string) {
    super('interview', id);
  }
}

export class InterviewHasInvitesException extends ConflictException {
  constructor(id: string) {
    super(`interview ${JSON.stringify(id)} already has invites and cannot move to another product`);
  }
}

/** A recording holds the identifiers redaction takes out of its transcript: both cannot hold at once. */
export class KeepAudioWithRedactionException extends BadRequestException {
  constructor() {
    super('keepAudio cannot be true while redactPII is true: a kept recording would hold what redaction removes from the answer');
  }
}
