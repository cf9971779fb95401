import { ConflictException } from '@nestjs/common';
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
