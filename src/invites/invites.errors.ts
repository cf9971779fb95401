import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { RecordNotFoundException } from '../common/errors';
import type { InviteStatus } from '../domain/invite-status';

export class InviteNotFoundException extends RecordNotFoundException {
  constructor(linkID: string) {
    super('invite', linkID);
  }
}

/** The change needs the invite in another status (409 naming the one it is in). */
export class InviteStateException extends ConflictException {
  constructor(status: InviteStatus, needed: InviteStatus) {
    super(`this interview is ${status}; that needs it ${needed}`);
  }
}

/** revokeOne on an invite that is no longer pending or started (409 naming its status). */
export class InviteNotRevocableException extends ConflictException {
  constructor(status: InviteStatus) {
    super(`invite is ${status}; only a pending or started invite can be revoked`);
  }
}

/** The link is past its expires_on (409): nothing more can happen on it. */
export class InviteExpiredException extends ConflictException {
  constructor() {
    super('this interview link has expired; ask the team that sent it for a new one');
  }
}

/**
 * The transcript changed between reading it and writing to it (another answer to the same invite got
 * in first): the caller composes its turns again on the new transcript.
 */
export class InviteChangedException extends ConflictException {
  constructor() {
    super('another answer to this interview is being handled; try again');
  }
}

export class TranscriptFullException extends ConflictException {
  constructor() {
    super('this interview\'s transcript is full');
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

/** No recording is kept for that turn (not a voice answer, the interview does not keep audio, or it was erased). */
export class AudioNotFoundException extends NotFoundException {
  constructor(linkID: string, turnIndex: number) {
    super(`no recording is kept for turn ${turnIndex} of invite ${JSON.stringify(linkID)}`);
  }
}
