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

/** A translation whose questions do not line up with the guidelines': question k must be question k. */
export class TranslationQuestionCountException extends BadRequestException {
  constructor(language: string, translated: number, base: number) {
    super(`translations.${language} has ${translated} question${translated === 1 ? '' : 's'} but guidelines have ${base}: each translation must hold as many questions as the guidelines`);
  }
}

/** The guidelines are already in the base language: a translation into it would be a second, conflicting text. */
export class TranslationOfBaseLanguageException extends BadRequestException {
  constructor(language: string) {
    super(`translations.${language}: ${language} is the interview's base language (the language of its guidelines); translations are the guidelines in other languages`);
  }
}
