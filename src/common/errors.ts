import { BadRequestException, ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';

export class RecordNotFoundException extends NotFoundException {
  constructor(kind: string, id: string) {
    super(`${kind} ${JSON.stringify(id)} not found`);
  }
}

export class ProductNotFoundException extends RecordNotFoundException {
  constructor(id: string) {
    super('product', id);
  }
}

export class InterviewNotFoundException extends RecordNotFoundException {
  constructor(id: string) {
    super('interview', id);
  }
}

export class OutOfScopeException extends ForbiddenException {
  constructor(what: string) {
    super(`${what} would not be visible to this token afterwards; a token may only write within its own organization or user`);
  }
}

export class MissingFilterException extends BadRequestException {
  constructor(names: string[]) {
    super(`at least one of ${names.join(', ')} is required`);
  }
}

export class InterviewHasInvitesException extends ConflictException {
  constructor(id: string) {
    super(`interview ${JSON.stringify(id)} already has invites and cannot move to another product`);
  }
}
