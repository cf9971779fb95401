import { BadRequestException, ConflictException } from '@nestjs/common';
import { RecordNotFoundException } from '../common/errors';
import type { InviteStatus } from './invite-status';

export class InviteNotFoundException extends RecordNotFoundException {
  constructor(linkID: string) {
    super('invite', linkID);
  }
}

export class InvalidInviteTransitionException extends ConflictException {
  constructor(linkID: string, from: InviteStatus, to: InviteStatus) {
    super(`invite ${linkID} cannot go from ${from} to ${to}`);
  }
}

/** createInvites named a product that is not the interview's. */
export class ProductMismatchException extends BadRequestException {
  constructor(productID: string, interviewID: string) {
    super(`productID ${JSON.stringify(productID)} is not the product of interview ${JSON.stringify(interviewID)}`);
  }
}

export class InviteCountException extends BadRequestException {
  constructor(max: number) {
    super(`count must be from 1 to ${max}`);
  }
}
